/**
 * Database access. `createDatabase` opens the pools for the URL its caller
 * gives (the CLI, the worker, the tests, and the web app's `appDatabase()`).
 *
 * Two pools: `db` is drizzle for the write path; `sql` is plain postgres.js
 * for the read path's hand-written queries. They cannot share one client:
 * drizzle replaces the client's type parsers (dates would arrive as text).
 */
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";

export type Database = ReturnType<typeof drizzle<typeof schema>>;
/** A database handle or an open transaction: domain code accepts either. */
export type Executor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

export type DatabaseHandle = { db: Database; sql: postgres.Sql; close: () => Promise<void> };

export type DatabaseOptions = {
  max?: number;
  /**
   * Commit without waiting for the WAL flush. Only for the worker, whose
   * writes count once graphile-worker completes the job in a later,
   * synchronous commit, which flushes them too; a crash before that re-runs the job.
   */
  asyncCommit?: boolean;
  /**
   * Plan each prepared statement once per connection (`plan_cache_mode =
   * force_generic_plan`), its partitions pruned when it runs. For the worker,
   * whose prepared statements (db/prepared.ts, and postgres.js's tagged
   * queries) run many times a second with the same shape; unprepared ones are
   * still planned at each run.
   *
   * A plan is made for the sizes the tables had then, and the queue's swings
   * from empty to a backlog: a plan made while it was empty reads it whole
   * in every claim, recording and queueing, until an ANALYZE happens to
   * invalidate it (bench/results/2026-12-02-one-queue-table.md).
   * So each connection lives at most `planLifetimeSeconds`, and its
   * successor plans for the sizes of the moment.
   */
  planOnce?: boolean;
  /** How long a connection that plans once lives, in seconds (`planLifetimeSeconds` unless given: the tests shorten it). */
  planLifetimeSeconds?: number;
  /** Limits on the pool's sessions (`sessionLimits` has each caller's); none for a caller that gives none, such as the migrator. */
  limits?: SessionLimits;
};

/**
 * `statement_timeout` and `idle_in_transaction_session_timeout` in
 * milliseconds, 0 for none. A session idle in a transaction holds its locks:
 * a company's history lock (server/domain/history-lock.ts) halts that
 * company's history and webhooks until it ends, and PostgreSQL ends it by
 * closing the session (the pool opens another). A statement that runs or
 * waits on a lock for longer than its pool ever needs is cancelled.
 *
 * The statement limit also bounds how long a connection may stay silent
 * while a reply is awaited (`replyDeadlineMs`): the server answers every
 * statement by then, so a connection that does not was cut by the network
 * without a FIN or RST (a dropped route, a stalled proxy) and is destroyed.
 * One wait is outside the statement limit: a COMMIT's flush to disk (or to a
 * synchronous standby). One that takes longer than the deadline is reported
 * as failed although it may have committed, as with any connection lost at
 * commit; the deadline is seconds past a limit no commit of ours comes near.
 */
export type SessionLimits = { statementMs: number; idleInTransactionMs: number };

/** How long a connection that plans once (`planOnce`) lives: how long a plan may outlive the sizes it was made for. */
export const planLifetimeSeconds = 10;

/** How long past its statement limit a pool waits for a reply before it takes the connection for dead. */
const replyGraceMs = 5_000;

export function replyDeadlineMs(limits: SessionLimits): number | null {
  return limits.statementMs > 0 ? limits.statementMs + replyGraceMs : null;
}

/** The deadline for a pool at this address: none when the address sets its own statement_timeout, which replaces ours and with it what the deadline rests on. */
export function replyDeadlineAt(url: string, limits: SessionLimits): number | null {
  return /[?&]statement_timeout=/.test(url) ? null : replyDeadlineMs(limits);
}

/** For every connection to the database, graphile-worker's pool's too (worker/job-pool.ts). */
export const connectionLiveness = {
  /**
   * TCP keepalive from this many seconds of silence: a peer gone without a
   * word is found by the kernel's probes (Node sends them a second apart and
   * gives up after ten), also on idle and LISTEN connections, which await
   * no reply.
   */
  keepAliveSeconds: 10,
  /** A server that accepts the connection but does not finish the startup in this time is given up on (postgres.js waits 30 s). */
  connectTimeoutSeconds: 10,
  /**
   * Seconds a connection waits before it tries again after failing, by
   * failures in a row: from 0.05 doubling to 1, with jitter. postgres.js's
   * own grows to 20 s, and a query waits in it: a request during a failover
   * waited out that growth instead of being answered 503 within
   * server/api/admission.ts's wait. One try a second per connection still
   * keeps a process from hammering a database that is down.
   */
  reconnectBackoff: (failures: number) => (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** failures, 1),
};

/** The limits of each caller's pools, and why (docs/operations.md, "Running at scale"). */
export const sessionLimits = {
  /**
   * /v1 runs two statements of milliseconds per request (admission, then the read) and the settings'
   * heaviest (the log over every day, counting past events to send) take
   * under a second; a request's transactions do no more between statements
   * than write an uploaded file.
   */
  web: { statementMs: 15_000, idleInTransactionMs: 15_000 },
  /**
   * A fan-out batch of 1,000 events, the hourly retention (a day detached and
   * dropped, rows of the DEFAULT partition moved to their day) and every
   * domain write of a job stay well under a minute; no transaction waits on
   * the network (deliveries hold none during HTTP).
   */
  worker: { statementMs: 60_000, idleInTransactionMs: 30_000 },
  /**
   * The dispatcher's claims (server/webhooks/delivery/dispatcher.ts): one statement of
   * milliseconds that skips locked rows, so a connection the network cut
   * halts claiming for seconds, not for the jobs' minute.
   */
  claims: { statementMs: 5_000, idleInTransactionMs: 5_000 },
  /**
   * The dispatcher's recordings (record.ts): one transaction of two statements of
   * milliseconds that may wait on a chain's lock for as long as another
   * short statement holds it. A connection the network cut halts recording,
   * and with it claiming, for 20 s, well within a message's lease (60 s by
   * default), rather than for past it, when other workers would send the
   * leased messages again.
   */
  recordings: { statementMs: 15_000, idleInTransactionMs: 15_000 },
  /**
   * The operator's commands: a bulk import's batch is one COPY per table and
   * waits for the batch before it (the company's history lock), which at
   * millions of candidates may take long, so no statement limit; nothing
   * waits on a person inside a transaction.
   */
  cli: { statementMs: 0, idleInTransactionMs: 60_000 },
} satisfies Record<string, SessionLimits>;

/**
 * Every session starts with JIT off: the service runs short statements of a
 * few milliseconds, which JIT compiling (on by default in stock PostgreSQL
 * builds such as Debian's, from an estimated cost of 100,000) can only slow,
 * by up to seconds each. Their estimates are kept honest too (`ROWS 1` on
 * set-returning functions), so this is the guard, not the fix. An operator
 * who wants JIT back adds `?jit=on` to DATABASE_URL: postgres.js sends the
 * address's parameters after these.
 */
export function createDatabase(url: string, options: DatabaseOptions = {}): DatabaseHandle {
  const connection = {
    application_name: "interview-api",
    jit: "off",
    ...(options.asyncCommit ? { synchronous_commit: "off" } : {}),
    ...(options.planOnce ? { plan_cache_mode: "force_generic_plan" } : {}),
    ...(options.limits
      ? {
          statement_timeout: options.limits.statementMs,
          idle_in_transaction_session_timeout: options.limits.idleInTransactionMs,
        }
      : {}),
  };
  const replyDeadline = options.limits ? replyDeadlineAt(url, options.limits) : null;
  const driverOptions = {
    max: options.max ?? 10,
    onnotice: () => {},
    connection,
    keep_alive: connectionLiveness.keepAliveSeconds,
    connect_timeout: connectionLiveness.connectTimeoutSeconds,
    backoff: connectionLiveness.reconnectBackoff,
    ...(options.planOnce ? { max_lifetime: options.planLifetimeSeconds ?? planLifetimeSeconds } : {}),
    // An option our patch adds to postgres.js (patches/), hence unknown to its types: see SessionLimits.
    ...(replyDeadline ? { reply_timeout: replyDeadline / 1000 } : {}),
  };
  const open = () => postgres(url, driverOptions);
  const writer = open();
  const sql = open();
  const db = drizzle(writer, { schema, casing: "snake_case" });
  return { db, sql, close: async () => void (await Promise.all([writer.end({ timeout: 5 }), sql.end({ timeout: 5 })])) };
}
