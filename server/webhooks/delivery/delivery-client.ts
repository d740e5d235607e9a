/**
 * The HTTP client every webhook attempt goes through.
 *
 * 1. Its connector runs for every new connection: it resolves the host name,
 *    refuses when any answer is not a public unicast address, and connects to
 *    exactly the vetted address while TLS still verifies the host name (SNI
 *    and certificate). Redirects are never followed.
 * 2. An attempt ends at its deadline (10 seconds) whatever phase it is in:
 *    resolving, connecting, the TLS handshake (the connector's own timer,
 *    since a request's abort signal reaches no connection still being made),
 *    then sending the request and reading the answer's head and body (the
 *    request's abort signal).
 * 3. A connection that has not finished its handshake by the deadline is
 *    reset (RST), not closed with a FIN: a receiver or firewall that reads
 *    nothing never answers a FIN, so a closed connection would live on half
 *    open at both ends. A connection cut in the request phase is destroyed.
 *    So each attempt holds at most one socket and none outlives it, beyond
 *    idle keep-alive sockets, which close after 4 s whatever the receiver asks.
 * 4. At most 1 MiB of an answer is read, of which 2 KiB are kept.
 */
import { lookup } from "node:dns/promises";
import { connect, type Socket } from "node:net";
import { createSecureContext, rootCertificates } from "node:tls";
import { Agent, buildConnector, errors, request } from "undici";
import type { DeliveryErrorClass } from "@/db/schema";
import { normalizeHost } from "../admin/address";
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

/** Opens the TCP connection to a vetted address. */
export type OpenSocket = (target: { host: string; port: number }) => Socket;

export type ClientOptions = {
  resolver?: Resolver;
  allowTargets?: readonly string[];
  extraCa?: string;
  /** Replaced only by tests that must prove no connection opens. */
  openSocket?: OpenSocket;
  /** How long an attempt may take (invariant 2); shortened only by tests that would otherwise wait minutes. */
  deadlineMs?: number;
};

export function createDeliveryClient(options: ClientOptions = {}): DeliveryClient {
  const resolver = options.resolver ?? systemResolver;
  const allowTargets = options.allowTargets ?? [];
  const deadlineMs = options.deadlineMs ?? answerDeadlineMs;
  const openSocket = options.openSocket ?? connect;
  // TLS over the socket we opened; its own connect timer is off, ours covers every phase. An extra
  // CA is read into one context here: handed to every connection as `ca`, the public roots and it
  // were parsed again for each, which cost far more CPU than a connection with the default roots.
  const startTls = buildConnector({
    timeout: 0,
    ...(options.extraCa ? { secureContext: createSecureContext({ ca: [...rootCertificates, options.extraCa] }) } : {}),
  });
  const keepAliveMs = 4_000;
  const agent = new Agent({
    keepAliveTimeout: keepAliveMs,
    keepAliveMaxTimeout: keepAliveMs,
    connect: (connectOptions, callback) => {
      const host = normalizeHost(connectOptions.hostname);
      const port = Number(connectOptions.port || "443");
      let socket: Socket | null = null;
      let settled = false;
      const settle: buildConnector.Callback = (...args) => {
        // A handshake that ends just after the deadline reset its socket.
        if (settled) return void args[1]?.destroy();
        settled = true;
        clearTimeout(deadline);
        if (args[0]) socket?.destroy();
        callback(...args);
      };
      const deadline = setTimeout(() => {
        const phase = !socket ? `resolving ${host}` : socket.connecting ? `connecting to ${host}` : `in the TLS handshake with ${host}`;
        // A socket still connecting has no peer to tell; one that connected is reset (invariant 3).
        if (socket && !socket.connecting) socket.resetAndDestroy();
        settle(new errors.ConnectTimeoutError(`timed out after ${deadlineMs / 1000} s ${phase}`), null);
      }, deadlineMs);
      (async () => {
        if (connectOptions.protocol !== "https:") throw new BlockedAddressError("only https is allowed");
        const { addresses, refused } = await resolveAndVet(host, resolver);
        if (addresses.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: "ENOTFOUND" });
        if (refused && !allowTargets.includes(`${host}:${port}`)) {
          throw new BlockedAddressError(`${host} resolves to ${refused}, which is not a public address`);
        }
        // The deadline passed while the name was being resolved: connect nowhere.
        if (settled) return;
        socket = openSocket({ host: addresses[0]!, port });
        startTls({ ...connectOptions, hostname: addresses[0]!, httpSocket: socket }, settle);
      })().catch((error: Error) => settle(error, null));
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
          signal: AbortSignal.timeout(deadlineMs),
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
