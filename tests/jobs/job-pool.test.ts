/**
 * graphile-worker's pool (worker/job-pool.ts) on a connection
 * the network cuts without a word (no FIN, no RST): the query waiting on it
 * fails once its reply is overdue and the pool opens a new connection, where
 * node-postgres alone would wait for ever; a statement that runs into its
 * limit and an idle connection are left alone. A loopback proxy in front of the
 * test database drops the packets. A checkout while a proxy whose server is
 * down takes each connection and closes it waits for the server, briefly,
 * instead of failing at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replyDeadlineMs } from "@/db/client";
import { createJobPool } from "@/worker/job-pool";
import { useTestDatabase } from "../support/database";
import { freePort } from "../support/ports";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

const test = useTestDatabase();
const limits = { statementMs: 2_000, idleInTransactionMs: 2_000 };
const deadline = replyDeadlineMs(limits)!;

let proxy: TcpProxy;
beforeAll(async () => {
  proxy = await startTcpProxy(test.url);
});
afterAll(() => proxy.close());

type JobPool = ReturnType<typeof createJobPool>;

/** A query as graphile-worker makes it: on a client of the pool, given back without an error whatever happened. */
async function query(pool: JobPool, text: string) {
  const client = await pool.connect();
  try {
    return await client.query(text);
  } finally {
    client.release();
  }
}

const backendPid = async (pool: JobPool) => (await query(pool, "select pg_backend_pid() as pid")).rows[0]!.pid as number;

describe("graphile-worker's pool, on a connection the network cut without a word", () => {
  it("fails the query waiting on it once its reply is overdue, and opens a new connection", async () => {
    const pool = createJobPool(proxy.url, 1, limits);
    try {
      const before = await backendPid(pool);
      expect(proxy.blackholeOne((count) => count - 1)).toBe(true); // the newest: this pool's one connection
      const started = performance.now();
      const waiting = await query(pool, "select 1").catch((error: unknown) => error);
      const waited = performance.now() - started;
      expect(waiting).toBeInstanceOf(Error);
      expect(waited).toBeGreaterThanOrEqual(deadline - 100);
      expect(waited).toBeLessThan(deadline + 5_000);
      const after = await backendPid(pool);
      expect(after).not.toBe(before);

      // The pool's own query (graphile-worker's cron uses it) passes a callback, not a promise: the same deadline.
      expect(proxy.blackholeOne((count) => count - 1)).toBe(true);
      const again = performance.now();
      await expect(pool.query("select 1")).rejects.toBeInstanceOf(Error);
      expect(performance.now() - again).toBeLessThan(deadline + 5_000);
      expect(await backendPid(pool)).not.toBe(after);
    } finally {
      await pool.end();
    }
  }, 60_000);

  it("lets a statement run into its limit, and a connection stay idle for longer than the deadline", async () => {
    const pool = createJobPool(proxy.url, 1, limits);
    try {
      const before = await backendPid(pool);
      // The server's own answer at the statement limit, well before the deadline: the connection is kept.
      await expect(query(pool, "select pg_sleep(3)")).rejects.toMatchObject({ code: "57014" });
      await new Promise((resolve) => setTimeout(resolve, deadline + 500)); // idle: no reply awaited
      expect(await backendPid(pool)).toBe(before);
    } finally {
      await pool.end();
    }
  }, 30_000);
});

it("waits out, at checkout, a server that closes every connection during its startup, and connects once it is back", async () => {
  const downstream = await startTcpProxy(test.url);
  const pool = createJobPool(downstream.url, 1, limits);
  try {
    const nobody = new URL(test.url);
    nobody.port = String(await freePort());
    downstream.switchTo(nobody.toString());
    const started = performance.now();
    const waiting = query(pool, "select 1 as one");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    downstream.switchTo(test.url);
    expect((await waiting).rows).toEqual([{ one: 1 }]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_500);
    expect(downstream.accepted()).toBeGreaterThan(1);
  } finally {
    await pool.end();
    await downstream.close();
  }
}, 30_000);
