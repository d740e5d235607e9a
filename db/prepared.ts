/**
 * The delivery hot path's statements (the claim, the recording of outcomes,
 * queueing messages) run as prepared statements, planned once per
 * connection instead of at every run.
 *
 * Why: over the partitioned history (db/partitions.ts: three tables, a
 * partition for every day kept and ahead) planning such a statement weighs
 * every day's partition and index, and cost more than running it (the claim
 * took longer to plan than to run, and a delivery cost the database several
 * times the CPU it did before partitioning). drizzle runs `execute`
 * unprepared, so each run was planned afresh. Prepared, with the worker's
 * connections set to plan generically (`planOnce` in db/client.ts), the
 * plan is made once, its days pruned when it runs.
 *
 * postgres.js names and caches a prepared statement by its text, per
 * connection: only statements whose text is fixed (values passed as
 * parameters, arrays as one parameter) belong here.
 */
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Executor } from "./client";
import { postgresJsSession } from "./drizzle-session";

/** The dialect of `createDatabase`'s drizzle, which renders the statement's text. */
const dialect = new PgDialect({ casing: "snake_case" });

/** Runs `query` on `db` (a database or an open transaction) as a prepared statement; its rows as `db.execute` gives them. */
export function executePrepared<Row extends Record<string, unknown>>(db: Executor, query: SQL): Promise<Row[]> {
  // drizzle prepares a query that has a name (the name itself is not used: postgres.js names it by its text).
  return postgresJsSession(db)
    .prepareQuery<{ execute: Row[]; all: Row[]; values: unknown[][] }>(dialect.sqlToQuery(query), undefined, "hot-path", false)
    .execute();
}
