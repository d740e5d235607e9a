/**
 * graphile-worker's pool (node-postgres), made here so that its connections
 * get what our own pools' get (db/client.ts): TCP keepalive, the connect
 * timeout, the worker's session limits (DATABASE_URL's parameters win over
 * these, as for our pools) and the same reply deadline (none when the
 * address sets its own statement_timeout).
 *
 * The reply deadline: a connection the network cut without a FIN or RST (a
 * dropped route, a stalled proxy) never answers, and keepalive does not find
 * it while a query waits (the peer's kernel, or a proxy's, still answers
 * probes). graphile-worker would then wait for ever on its job fetch, a job's
 * completion or its cron, and fan-out would stop in that process. The
 * server answers every statement within its limit, so past the limit and a
 * grace the connection is taken for dead: ended, which node-postgres does by
 * destroying the socket when a query is active, failing that query; the pool
 * then drops the client and opens a new one. node-postgres's own
 * `query_timeout` does not do this: it fails the query but keeps the
 * connection in use, with the late reply still ahead of every later query.
 * The deadline runs from the call, so it assumes what graphile-worker does:
 * one statement per query, and no query queued behind another on a client.
 */
import pg from "pg";
import { whileUnavailable } from "@/db/availability";
import { connectionLiveness, replyDeadlineAt, type SessionLimits, sessionLimits } from "@/db/client";
import { warnUnlessOutage } from "@/server/observability/outage-log";

export function createJobPool(connectionString: string, max: number, limits: SessionLimits = sessionLimits.worker): pg.Pool {
  const deadline = replyDeadlineAt(connectionString, limits);
  const pool = new PatientPool({
    connectionString,
    max,
    application_name: "interview-api",
    keepAlive: true,
    keepAliveInitialDelayMillis: connectionLiveness.keepAliveSeconds * 1000,
    connectionTimeoutMillis: connectionLiveness.connectTimeoutSeconds * 1000,
    statement_timeout: limits.statementMs,
    idle_in_transaction_session_timeout: limits.idleInTransactionMs,
    ...(deadline ? { Client: clientWithReplyDeadline(deadline) } : {}),
  });
  // A connection that fails while idle, or while checked out, emits an error, which would end the process unheard. pg has
  // already dropped it, and a waiting query fails on its own; what is left is to say so, once per outage.
  pool.on("error", (error) => warnUnlessOutage("the job pool", "an idle connection of the job pool failed; the pool opens another", error));
  pool.on("connect", (client) => client.on("error", (error) => warnUnlessOutage("the job pool", "a connection of the job pool failed", error)));
  return pool;
}

/**
 * How long graphile-worker's pool waits for a connection the database
 * refuses or cannot open yet (out of slots, failing over). pg's pool fails a
 * checkout at once when it cannot open a new connection, even while its own
 * connections are about to come free; graphile-worker, failing to record a
 * job's end that way, shuts its worker pool down ("the queue is in an
 * inconsistent state") and the process starts another, its jobs held until
 * their lock is released.
 */
export const jobPoolConnectWaitMs = 10_000;

/** A pg pool whose checkouts (graphile-worker's every statement) wait out a database briefly unavailable, trying its idle connections first. */
class PatientPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void) {
    // The callback form is pg's own (its pool.query): left as it is.
    if (callback) return super.connect(callback);
    return whileUnavailable(() => super.connect(), jobPoolConnectWaitMs, undefined, { connecting: true });
  }
}

/** A node-postgres client that ends its connection when a query's reply is overdue (see above). */
function clientWithReplyDeadline(deadlineMs: number) {
  return class ClientWithReplyDeadline extends pg.Client {
    // node-postgres's overloads (a promise, or a callback last: pg-pool's own `query` uses that form) all pass through unchanged.
    // biome-ignore lint/suspicious/noExplicitAny: one signature standing for all of node-postgres's overloads, each with its own return type
    override query(...args: unknown[]): any {
      // Ending fails the waiting query with "Connection terminated", the error its caller sees.
      const overdue = setTimeout(() => this.end().catch(() => {}), deadlineMs);
      const settled = () => clearTimeout(overdue);
      const callback = args.at(-1);
      if (typeof callback === "function")
        args[args.length - 1] = (...results: unknown[]) => {
          settled();
          return callback(...results);
        };
      let result: unknown;
      try {
        result = (super.query as (...queryArgs: unknown[]) => unknown)(...args);
      } catch (error) {
        settled(); // refused before it was sent (a bad argument): the connection is fine
        throw error;
      }
      if (result instanceof Promise) result.then(settled, settled);
      else if (typeof callback !== "function") settled(); // a query object streaming its rows (pg-cursor): not ours to time
      return result;
    }
  };
}
