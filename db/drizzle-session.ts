/**
 * The one place that reaches into drizzle's internals (`db._.session`), which
 * only drizzle-orm 0.45 guarantees. drizzle has no public way to run a raw
 * statement prepared, or to reach the postgres.js connection an open
 * transaction runs on (for COPY, which drizzle cannot speak); both need the
 * session under a database or transaction handle. Everything else goes
 * through drizzle's public API.
 *
 * tests/db/drizzle-session.test.ts fails when an upgrade moves or renames what
 * this reads, before a caller finds out in production.
 */
import { is } from "drizzle-orm";
import { PostgresJsSession } from "drizzle-orm/postgres-js/session";
import type postgres from "postgres";
import type { Executor } from "./client";

/** The postgres.js session under a drizzle database or an open transaction. */
export function postgresJsSession(db: Executor) {
  const session = db._.session;
  if (!is(session, PostgresJsSession)) throw new Error("Expected drizzle's postgres.js driver: db/drizzle-session.ts reads its session.");
  return session;
}

/** The postgres.js connection a database or open transaction runs on; inside a transaction, statements sent on it are part of that transaction. */
export function postgresConnectionOf(db: Executor): postgres.Sql {
  return postgresJsSession(db).client as postgres.Sql;
}
