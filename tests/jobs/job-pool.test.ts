/**
 * graphile-worker's pool (server/runtime/worker/job-pool.ts) on a connection
 * the network cuts without a word (no FIN, no RST): the query waiting on it
 * fails once its reply is overdue and the pool opens a new connection, where
 * node-postgres alone would wait for ever; a slow statement within its limit
 * and an idle connection are left alone. A loopback proxy in front of the
 * test database drops the packets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replyDeadlineMs } from "@/db/client";
import { createJobPool } from "@/server/runtime/worker/job-pool";
import { useTestDatabase } from "../support/database";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

const test = useTestDatabase();
const limits = { statementMs: 2_000, idleInTransactionMs: 2_000 };
const deadline = replyDeadlineMs(limits)!;

let proxy: TcpProxy;
beforeAll(async () => {
  proxy = await startTcpProxy(test.url);
});
afterAll(() => proxy.close());

const backendPid = async (pool: ReturnType<typeof createJobPool>) => (await pool.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;

describe("graphile-worker's pool, on a connection the network cut without a word", () => {
  it("fails the query waiting on it once its reply is overdue, and opens a new connection", async () => {
    const pool = createJobPool(proxy.url, 1, limits);
    try {
      const before = await backendPid(pool);
      expect(proxy.blackholeOne((count) => count - 1)).toBe(true); // the newest: this pool's one connection
      const started = performance.now();
      const waiting = await pool.query("select 1").catch((error: unknown) => error);
      const waited = performance.now() - started;
      expect(waiting).toBeInstanceOf(Error);
      expect(waited).toBeGreaterThanOrEqual(deadline - 100);
      expect(waited).toBeLessThan(deadline + 5_000);
      expect(await backendPid(pool)).not.toBe(before);
    } finally {
      await pool.end();
    }
  });

  it("lets a statement run up to its limit, and a connection stay idle for longer than the deadline", async () => {
    const pool = createJobPool(proxy.url, 1, limits);
    try {
      const before = await backendPid(pool);
      await pool.query("select pg_sleep(1.5)");
      await new Promise((resolve) => setTimeout(resolve, deadline + 500)); // idle: no reply awaited
      expect(await backendPid(pool)).toBe(before);
    } finally {
      await pool.end();
    }
  }, 30_000);
});
