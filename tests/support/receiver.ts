/**
 * A webhook receiver for tests: a real HTTPS server on 127.0.0.1 with a
 * certificate made at test time for `localhost`. It records every request
 * (raw body bytes included) and answers as the test tells it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { generate } from "selfsigned";
import { afterAll, beforeAll } from "vitest";

export type Received = { method: string; path: string; headers: IncomingHttpHeaders; body: string; at: number };
/** How to answer; `until` holds the answer back until it settles, for tests that interleave work with an attempt in flight. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number; until?: Promise<unknown> };

export type Receiver = {
  port: number;
  target: string;
  ca: string;
  url: (path?: string) => string;
  received: Received[];
  answer: (decide: (request: Received) => Answer) => void;
  /** What `received` keeps of each request from now on (all of it unless told): a bench of 200,000 requests keeps what it checks, not every body. */
  keep: (what: (request: Received) => Received) => void;
  /** Waits until `count` requests have arrived; throws, naming how many did, when they have not within `timeoutMs`. */
  waitFor: (count: number, timeoutMs?: number) => Promise<Received[]>;
  close: () => Promise<void>;
};

export type Certificate = { private: string; cert: string };

/**
 * A self-signed certificate for `localhost` and 127.0.0.1, made at test time:
 * `private` and `cert` (also the CA to trust). Valid from an hour ago, as
 * public CAs date theirs, so a sender whose clock is behind (tests/faults/clock-skew.test.ts) takes it.
 */
export function localhostCertificate(): Promise<Certificate> {
  return generate([{ name: "commonName", value: "localhost" }], {
    keySize: 2048,
    notBeforeDate: new Date(Date.now() - 3_600_000),
    extensions: [
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
        ],
      },
    ],
  });
}

/** `certificate`: for a test whose client must trust this receiver and servers of its own with one CA (one name, one certificate). */
export async function startReceiver(certificate?: Certificate): Promise<Receiver> {
  const pems = certificate ?? (await localhostCertificate());
  const received: Received[] = [];
  let decide: (request: Received) => Answer = () => ({ status: 200, body: "ok" });
  let kept = (request: Received) => request;
  const server: Server = createServer({ key: pems.private, cert: pems.cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { method: request.method!, path: request.url!, headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(kept(entry));
      const answer = decide(entry);
      const respond = () => response.writeHead(answer.status, answer.headers).end(answer.body ?? "");
      // At once unless told to wait: a timer of 0 still waits for the next turn of timers, a millisecond on every request.
      const send = () => (answer.delayMs ? setTimeout(respond, answer.delayMs) : respond());
      if (answer.until) void answer.until.finally(send);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    target: `localhost:${port}`,
    ca: pems.cert,
    url: (path = "/hook") => `https://localhost:${port}${path}`,
    received,
    answer: (next) => {
      decide = next;
    },
    keep: (what) => {
      kept = what;
    },
    waitFor: async (count, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() >= deadline) throw new Error(`The receiver got ${received.length} of the ${count} requests waited for within ${timeoutMs} ms.`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A receiver for the product's own processes (the server, worker processes)
 * in a test file: started before its tests and closed after them, with its
 * certificate written to a file those processes are told to trust.
 */
export function useProcessReceiver() {
  let started: Receiver | undefined;
  let caFile = "";
  beforeAll(async () => {
    started = await startReceiver();
    caFile = path.join(mkdtempSync(path.join(tmpdir(), "interview-api-ca-")), "receiver.pem");
    writeFileSync(caFile, started.ca);
  });
  afterAll(() => started?.close());
  return {
    get receiver(): Receiver {
      if (!started) throw new Error("The receiver starts in beforeAll; use it in hooks and tests only.");
      return started;
    },
    get caFile() {
      return caFile;
    },
    /** What lets the processes deliver to it: its target allowed, its certificate trusted. */
    env: () => ({ WEBHOOK_ALLOW_TARGETS: started!.target, WEBHOOK_CA_FILE: caFile }),
  };
}
