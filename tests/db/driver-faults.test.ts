/**
 * A connection that dies while postgres.js sets it up must fail only the
 * queries waiting on it. postgres.js 3.4.9 reads the array types as the
 * first statement of every new connection and drops that promise
 * (porsager/postgres#1192, #1223): when the backend dies at that moment (a
 * PostgreSQL restart while pools refill), the rejection escapes every caller
 * and Node ends the process. Our copy carries the fix (patches/).
 *
 * The fault is forced, not waited for: a loopback proxy in front of the test
 * database resets the connection the moment the driver sends that statement.
 *
 * A connection whose packets the network drops (no FIN, no RST) must not
 * hold its query forever: the pools' reply deadline (db/client.ts, added to
 * postgres.js by our patch) fails the query and replaces the connection, and
 * never cuts a slow statement or an idle connection. A query sent to a
 * connection between its error and its close failed then too (the patch's
 * other part): before, it waited forever.
 *
 * A server that takes the connection and closes it before the startup ends
 * (a TCP proxy or load balancer whose database is down, as during a
 * failover) fails the query that opened it, as a refused connection does,
 * and is tried again after the pools' backoff: postgres.js tried again at
 * once, in a busy loop, and the query waited for as long as the server was gone.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { databaseUnavailability } from "@/db/availability";
import { createDatabase, replyDeadlineMs } from "@/db/client";
import { useTestDatabase } from "../support/database";
import { freePort } from "../support/ports";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

const test = useTestDatabase();
const arrayTypesQuery = "from pg_catalog.pg_type";

let proxy: TcpProxy;
let resets = 0;

beforeAll(async () => {
  proxy = await startTcpProxy(test.url);
});

afterAll(() => proxy.close());

/** Resets the next `count` connections that ask for the array types; later ones pass. */
function resetArrayTypeReads(count: number) {
  let left = count;
  proxy.decide((chunk, direction) => {
    if (left === 0 || direction !== "to-server" || !chunk.includes(arrayTypesQuery)) return "pass";
    left--;
    resets++;
    return "reset";
  });
}

const escaped: unknown[] = [];
const onUnhandled = (reason: unknown) => escaped.push(reason);
beforeAll(() => void process.on("unhandledRejection", onUnhandled));
afterAll(() => void process.off("unhandledRejection", onUnhandled));
afterEach(() => {
  escaped.length = 0;
  resets = 0;
  proxy.decide(null);
});

it("fails only the waiting query when a new connection dies while the driver reads the array types", async () => {
  const database = createDatabase(proxy.url, { max: 1 });
  try {
    resetArrayTypeReads(1);
    const first = await database.sql`select 1 as one`.catch((error: unknown) => error);
    // Whatever escaped the driver is reported on a later turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(resets).toBe(1);
    expect(escaped).toEqual([]);
    expect(first).toMatchObject({ code: "ECONNRESET" });
    // The pool opens a new connection for the next query, arrays parsed as before.
    const [row] = await database.sql<Array<{ ids: string[] }>>`select array['a', 'b'] as ids`;
    expect(row!.ids).toEqual(["a", "b"]);
  } finally {
    await database.close();
  }
});

describe("a connection the network cuts without a word (no FIN, no RST)", () => {
  const limits = { statementMs: 2_000, idleInTransactionMs: 2_000 };
  const deadline = replyDeadlineMs(limits)!;
  const backendPid = async (database: ReturnType<typeof createDatabase>) =>
    (await database.sql<Array<{ pid: number }>>`select pg_backend_pid() as pid`)[0]!.pid;

  it("fails the query waiting on it once its reply is overdue, and the pool opens a new connection", async () => {
    const database = createDatabase(proxy.url, { max: 1, limits });
    try {
      const before = await backendPid(database);
      expect(proxy.blackholeOne((count) => count - 1)).toBe(true); // the newest: this pool's one connection
      const started = performance.now();
      // A caller that tries again the moment its query fails reaches the dying
      // connection before it closes: that query must fail too, not wait forever.
      let retried: Promise<unknown> = Promise.resolve();
      const waiting = await database.sql`select 1`.catch((error: unknown) => {
        retried = database.sql`select 1`.catch((retryError: unknown) => retryError);
        return error;
      });
      const waited = performance.now() - started;
      expect(waiting).toMatchObject({ code: "REPLY_TIMEOUT" });
      expect(waited).toBeGreaterThanOrEqual(deadline - 100);
      expect(waited).toBeLessThan(deadline + 5_000);
      expect(await retried).toMatchObject({ code: "CONNECTION_CLOSED" });
      expect(await backendPid(database)).not.toBe(before);
    } finally {
      await database.close();
    }
  });

  it("lets a statement run up to its limit, and a connection stay idle for longer than the deadline", async () => {
    const database = createDatabase(proxy.url, { max: 1, limits });
    try {
      const before = await backendPid(database);
      await database.sql`select pg_sleep(1.5)`;
      await new Promise((resolve) => setTimeout(resolve, deadline + 500)); // idle: no reply awaited
      expect(await backendPid(database)).toBe(before);
    } finally {
      await database.close();
    }
  }, 30_000);
});

it("fails a query whose connection a server closes during its startup, as a refused one, and tries again after the backoff", async () => {
  const downstream = await startTcpProxy(test.url);
  const database = createDatabase(downstream.url, { max: 1 });
  try {
    const nobody = new URL(test.url);
    nobody.port = String(await freePort());
    downstream.switchTo(nobody.toString());
    // A caller that tries again the moment its query fails, for 3 s.
    const failures: unknown[] = [];
    for (const until = Date.now() + 3_000; Date.now() < until; ) await database.sql`select 1`.catch((error: unknown) => failures.push(error));
    expect(failures[0]).toMatchObject({ code: "STARTUP_CLOSED" });
    expect(databaseUnavailability(failures[0])).toEqual({ reason: "database unreachable: the connection was closed before it was ready", beforeSending: true });
    // The pool's backoff, from 0.05 s doubling to 1 s with jitter, paces it: about eight tries in 3 s.
    expect(downstream.accepted()).toBeGreaterThanOrEqual(3);
    expect(downstream.accepted()).toBeLessThanOrEqual(12);
    downstream.switchTo(test.url);
    await expect.poll(() => database.sql`select 1 as one`.catch(() => null), { timeout: 5_000 }).toEqual([{ one: 1 }]);
  } finally {
    await database.close();
    await downstream.close();
  }
});

it("fails a transaction's next statement when its connection closed between two of them, and the pool goes on", async () => {
  const database = createDatabase(test.url, { max: 1 });
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.on("uncaughtException", onUncaught);
  try {
    const outcome = await database.sql
      .begin(async (tx) => {
        const [{ pid }] = await tx<[{ pid: number }]>`select pg_backend_pid() as pid`;
        // The server ends the connection while the transaction holds it between statements (a failover, a restart).
        await test.handle.sql`select pg_terminate_backend(${pid})`;
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx`select 2`;
      })
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(uncaught).toEqual([]);
    expect(outcome).toBeInstanceOf(Error);
    // The pool's one connection is not lost: the next query opens a new one.
    expect(await database.sql<Array<{ one: number }>>`select 1 as one`).toEqual([{ one: 1 }]);
  } finally {
    process.off("uncaughtException", onUncaught);
    await database.close();
  }
});
