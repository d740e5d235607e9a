/**
 * The HTTP client every webhook attempt goes through. Its connector runs for
 * every new connection: it resolves the host name, refuses when any answer is
 * not a public unicast address, and connects to exactly the vetted address
 * while TLS still verifies the host name (SNI and certificate). Redirects are
 * never followed; the whole answer must arrive within 10 seconds.
 */
import { lookup } from "node:dns/promises";
import { rootCertificates } from "node:tls";
import { Agent, buildConnector, request } from "undici";
import type { DeliveryErrorClass } from "@/db/schema";
import { normalizeHost } from "./address";
import { type Resolver, resolveAndVet } from "./ip-policy";

export type { Resolver };

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((answer) => answer.address);

export class BlockedAddressError extends Error {
  readonly code = "WEBHOOK_BLOCKED_ADDRESS";
}

export type DeliveryResult = {
  succeeded: boolean;
  status: number | null;
  headers: Record<string, string> | null;
  bodyExcerpt: string | null;
  errorClass: DeliveryErrorClass | null;
  errorMessage: string | null;
  durationMs: number;
};

export type DeliveryClient = {
  post: (url: string, body: string, headers: Record<string, string>) => Promise<DeliveryResult>;
  close: () => Promise<void>;
};

export const answerDeadlineMs = 10_000;
const excerptBytes = 2048;
const maxReadBytes = 1024 * 1024;

export type ClientOptions = {
  resolver?: Resolver;
  allowTargets?: readonly string[];
  extraCa?: string;
  /** Opens the socket to the vetted address; replaced only by tests that must prove no socket opens. */
  connector?: buildConnector.connector;
};

export function createDeliveryClient(options: ClientOptions = {}): DeliveryClient {
  const resolver = options.resolver ?? systemResolver;
  const allowTargets = options.allowTargets ?? [];
  const connectVetted =
    options.connector ??
    buildConnector({
      timeout: answerDeadlineMs,
      ...(options.extraCa ? { ca: [...rootCertificates, options.extraCa] } : {}),
    });
  const agent = new Agent({
    keepAliveTimeout: 4_000,
    connect: (connectOptions, callback) => {
      const host = normalizeHost(connectOptions.hostname);
      const target = `${host}:${connectOptions.port || "443"}`;
      (async () => {
        if (connectOptions.protocol !== "https:") throw new BlockedAddressError("only https is allowed");
        const { addresses, refused } = await resolveAndVet(host, resolver);
        if (addresses.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: "ENOTFOUND" });
        if (refused && !allowTargets.includes(target)) {
          throw new BlockedAddressError(`${host} resolves to ${refused}, which is not a public address`);
        }
        return addresses[0]!;
      })().then(
        (address) => connectVetted({ ...connectOptions, hostname: address }, callback),
        (error: Error) => callback(error, null),
      );
    },
  });

  return {
    async post(url, body, headers) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      try {
        const response = await request(url, {
          method: "POST",
          headers,
          body,
          dispatcher: agent,
          signal: AbortSignal.timeout(answerDeadlineMs),
          headersTimeout: answerDeadlineMs,
          bodyTimeout: answerDeadlineMs,
        });
        const bodyExcerpt = await readExcerpt(response.body);
        const status = response.statusCode;
        const succeeded = status >= 200 && status < 300;
        const errorClass: DeliveryErrorClass | null = succeeded ? null : status >= 300 && status < 400 ? "redirect" : "http_status";
        return {
          succeeded,
          status,
          headers: excerptHeaders(response.headers),
          bodyExcerpt,
          errorClass,
          errorMessage: succeeded ? null : errorClass === "redirect" ? `redirect (${status}) not followed` : `answered ${status}`,
          durationMs: elapsed(),
        };
      } catch (error) {
        return { succeeded: false, status: null, headers: null, bodyExcerpt: null, ...classify(error), durationMs: elapsed() };
      }
    },
    close: () => agent.close(),
  };
}

/** Reads the whole answer (up to 1 MiB) and keeps its first 2 KiB as text. */
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy: () => void }): Promise<string> {
  const kept: Buffer[] = [];
  let read = 0;
  for await (const chunk of body) {
    if (read < excerptBytes) kept.push(chunk.subarray(0, excerptBytes - read));
    read += chunk.length;
    if (read >= maxReadBytes) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(kept).toString("utf8");
}

function excerptHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const entries = Object.entries(headers)
    .filter((entry): entry is [string, string | string[]] => entry[1] !== undefined)
    .slice(0, 30)
    .map(([name, value]) => [name, (Array.isArray(value) ? value.join(", ") : value).slice(0, 500)]);
  return Object.fromEntries(entries);
}

/** The failure class of a thrown delivery error, looking through its causes. */
export function classify(error: unknown): { errorClass: DeliveryErrorClass; errorMessage: string } {
  const chain: Array<{ name?: string; code?: string; message?: string }> = [];
  for (let current = error as { cause?: unknown } | undefined; current && chain.length < 5; current = current.cause as { cause?: unknown }) {
    chain.push(current as never);
  }
  const codes = chain.map((entry) => `${entry.code ?? ""} ${entry.name ?? ""}`).join(" ");
  const message = chain.map((entry) => entry.message).filter(Boolean)[0] ?? "delivery failed";
  const errorClass: DeliveryErrorClass = /WEBHOOK_BLOCKED_ADDRESS/.test(codes)
    ? "blocked_address"
    : /ENOTFOUND|EAI_AGAIN|EAI_NODATA|EAI_NONAME/.test(codes)
      ? "dns"
      : /ECONNREFUSED/.test(codes)
        ? "connection_refused"
        : /TimeoutError|AbortError|UND_ERR_(HEADERS|BODY|CONNECT)_TIMEOUT|ETIMEDOUT/.test(codes)
          ? "timeout"
          : /CERT|SSL|TLS|ERR_SSL|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME|HOSTNAME_MISMATCH/i.test(codes + message)
            ? "tls"
            : "connection";
  return { errorClass, errorMessage: message.slice(0, 500) };
}
