/**
 * The delivery client's deadline against hostile receivers on 127.0.0.1: one
 * whose name never resolves (a fake resolver), one that accepts TCP and never
 * reads or speaks TLS, one that reads the request and never answers, one that
 * trickles its answer, one that resets, one that answers garbage, one that
 * sends 64 MB, one that asks to keep its idle connection for 10 minutes. Each
 * attempt must end by its deadline, read no more than it may, and leave no
 * connection behind, counted from the receiver's side. A healthy receiver
 * beside all of them answers as if they were not there.
 *
 * The deadline is 10 s in production; these tests give the client 1 s, and
 * the twenty tries in a row 250 ms each (stalled-handshake.test.ts runs the
 * real worker with the real deadline).
 */
import { createServer as createTcpServer, type Server, type Socket } from "node:net";
import { createServer as createTlsServer, type TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeliveryClient, type DeliveryClient, type DeliveryResult, type Resolver } from "@/server/webhooks/delivery/delivery-client";
import { type Certificate, localhostCertificate, type Receiver, startReceiver } from "../support/receiver";

const deadlineMs = 1_000;
/** Timers and loopback round trips on a busy machine. */
const slackMs = 400;

type Hostile = { server: Server; url: string; target: string; open: () => number; accepted: () => number; bytesSent: () => number };
const servers: Hostile[] = [];

/** A server that counts its connections, by their TCP sockets, and how many bytes it got out. */
async function listen(server: Server, onTcpSocket: (socket: Socket) => void = () => {}): Promise<Hostile> {
  let open = 0;
  let accepted = 0;
  let bytesSent = 0;
  server.on("connection", (socket: Socket) => {
    accepted++;
    open++;
    socket.on("error", () => {});
    socket.on("close", () => {
      open--;
      bytesSent += socket.bytesWritten;
    });
    onTcpSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const target = `localhost:${(server.address() as { port: number }).port}`;
  const hostile = { server, url: `https://${target}/hook`, target, open: () => open, accepted: () => accepted, bytesSent: () => bytesSent };
  servers.push(hostile);
  return hostile;
}

/** A TLS server that hands each connection, once it has sent its request's first bytes, to `behave`. */
async function tlsServer(pems: Certificate, behave: (socket: TLSSocket) => void) {
  const server = createTlsServer({ key: pems.private, cert: pems.cert }, (socket) => {
    socket.on("error", () => {});
    socket.once("data", () => behave(socket));
  });
  return listen(server);
}

let healthy: Receiver;
let silent: Hostile;
let neverAnswers: Hostile;
let trickles: Hostile;
let garbage: Hostile;
let resets: Hostile;
let huge: Hostile;
let lingers: Hostile;
let client: DeliveryClient;
let clientWithDeadline: (deadlineMs: number) => DeliveryClient;
let unresolvedTarget = "";
const unanswered: Resolver = (host) => (host === "never-resolves.example.com" ? new Promise(() => {}) : Promise.resolve(["127.0.0.1"]));

beforeAll(async () => {
  const pems = await localhostCertificate();
  healthy = await startReceiver(pems);
  silent = await listen(createTcpServer());
  neverAnswers = await tlsServer(pems, () => {});
  trickles = await tlsServer(pems, (socket) => {
    socket.write("HTTP/1.1 200 OK\r\ncontent-length: 1000000\r\n\r\n");
    const drip = setInterval(() => socket.write("x"), 50);
    socket.on("close", () => clearInterval(drip));
  });
  garbage = await tlsServer(pems, (socket) => socket.write("SMTP READY\r\n\r\n\u0000\u0001\u0002"));
  resets = await listen(createTcpServer(), (socket) => socket.resetAndDestroy());
  huge = await tlsServer(pems, (socket) => {
    const total = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, "y");
    socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${total}\r\n\r\n`);
    let written = 0;
    const pour = () => {
      while (written < total && !socket.destroyed) {
        written += chunk.length;
        if (!socket.write(chunk)) return void socket.once("drain", pour);
      }
    };
    pour();
  });
  lingers = await tlsServer(pems, (socket) => socket.write("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nkeep-alive: timeout=600\r\n\r\nok"));
  unresolvedTarget = `never-resolves.example.com:${(silent.server.address() as { port: number }).port}`;
  clientWithDeadline = (deadline) =>
    createDeliveryClient({
      deadlineMs: deadline,
      resolver: unanswered,
      allowTargets: [healthy.target, unresolvedTarget, ...servers.map((server) => server.target)],
      extraCa: pems.cert,
    });
  client = clientWithDeadline(deadlineMs);
});

afterAll(async () => {
  await client.close();
  await healthy.close();
  for (const { server } of servers) {
    server.close();
  }
});

async function timed(url: string, through = client): Promise<DeliveryResult & { tookMs: number }> {
  const started = performance.now();
  const result = await through.post(url, JSON.stringify({ hello: "world" }), { "content-type": "application/json" });
  return { ...result, tookMs: performance.now() - started };
}

/** The receiver's side has seen every connection to it end. */
const allClosed = (server: Hostile) => expect.poll(() => server.open(), { timeout: slackMs, interval: 10 }).toBe(0);

describe("an attempt's deadline", () => {
  it("ends it while the name is still resolving", async () => {
    const result = await timed(`https://${unresolvedTarget}/hook`);
    expect(result).toMatchObject({ succeeded: false, errorClass: "timeout" });
    expect(result.errorMessage).toContain("resolving never-resolves.example.com");
    expect(result.tookMs).toBeLessThan(deadlineMs + slackMs);
  });

  it("resets the connection to a receiver that accepts TCP and never speaks TLS, on each of 20 tries", async () => {
    // Each try waits out its whole deadline, so these have a shorter one: what
    // is checked is that no try leaves its connection behind for the next.
    const tryDeadlineMs = 250;
    const shortDeadlineClient = clientWithDeadline(tryDeadlineMs);
    try {
      for (let attempt = 1; attempt <= 20; attempt++) {
        const result = await timed(silent.url, shortDeadlineClient);
        expect(result).toMatchObject({ succeeded: false, errorClass: "timeout" });
        expect(result.tookMs).toBeLessThan(tryDeadlineMs + slackMs);
        await allClosed(silent);
        expect(silent.accepted()).toBe(attempt);
      }
    } finally {
      await shortDeadlineClient.close();
    }
  });

  it("gives up on a receiver that reads the request and never answers, and closes the connection", async () => {
    const result = await timed(neverAnswers.url);
    expect(result).toMatchObject({ succeeded: false, status: null, errorClass: "timeout" });
    expect(result.tookMs).toBeGreaterThanOrEqual(deadlineMs - 50);
    expect(result.tookMs).toBeLessThan(deadlineMs + slackMs);
    await allClosed(neverAnswers);
  });

  it("reads a trickled answer no further than the deadline", async () => {
    const result = await timed(trickles.url);
    expect(result).toMatchObject({ succeeded: false, errorClass: "timeout" });
    expect(result.tookMs).toBeLessThan(deadlineMs + slackMs);
    await allClosed(trickles);
  });
});

describe("a receiver that misbehaves quickly", () => {
  it("costs a failed attempt and its connection when it resets or answers garbage", async () => {
    expect(await timed(resets.url)).toMatchObject({ succeeded: false, status: null, errorClass: "connection" });
    expect(await timed(garbage.url)).toMatchObject({ succeeded: false, status: null, errorClass: "connection" });
    await allClosed(resets);
    await allClosed(garbage);
  });

  it("costs no more than 1 MiB of reading when it sends 64 MB", async () => {
    const result = await timed(huge.url);
    expect(result).toMatchObject({ succeeded: true, status: 200 });
    expect(result.bodyExcerpt).toHaveLength(2048);
    await allClosed(huge);
    // What the receiver got out before the connection closed: what we read plus the socket buffers on the way.
    expect(huge.bytesSent()).toBeLessThan(8 * 1024 * 1024);
  });
});

it("closes an idle connection after 4 s, however long the receiver asks to keep it", { timeout: 10_000 }, async () => {
  expect(await timed(lingers.url)).toMatchObject({ succeeded: true, status: 200 });
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  await allClosed(lingers);
});

it("leaves a healthy receiver's deliveries succeeding while all of them misbehave at once", async () => {
  const misbehaving = [silent, neverAnswers, trickles, garbage, resets, huge];
  // One client for all, as a worker has, with a 3 s deadline: the misbehaving
  // servers share this process's event loop with it, and on a busy 2-core
  // machine their twelve handshakes and pours held a healthy delivery past
  // 1 s. The healthy ones still all go while the others misbehave.
  const shared = clientWithDeadline(3_000);
  try {
    // Its connection is made first, before the others pour.
    expect((await timed(healthy.url(), shared)).status).toBe(200);
    const hostile = misbehaving.flatMap((server) => [timed(server.url, shared), timed(server.url, shared)]);
    const healthyResults: DeliveryResult[] = [];
    for (let index = 0; index < 10; index++) healthyResults.push(await timed(healthy.url(), shared));
    expect(healthyResults.map((result) => result.status)).toEqual(Array(10).fill(200));
    await Promise.all(hostile);
    for (const server of misbehaving) await allClosed(server);
  } finally {
    await shared.close();
  }
});
