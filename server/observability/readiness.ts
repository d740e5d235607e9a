/**
 * Whether a process can do its work: the database answers and has every
 * migration this build knows of (db/migrations/meta/_journal.json, compared
 * with drizzle's record of what was applied). The worker adds its own parts
 * (worker/run.ts). A probe gets its answer within a few seconds even when the
 * database does not answer at all, and parallel probes share one query.
 */
import type postgres from "postgres";
import { databaseUnavailability } from "@/db/availability";
import journal from "@/db/migrations/meta/_journal.json";
import { DeadlineExceeded, withDeadline } from "@/server/deadline";
import { warnUnlessOutage } from "./outage-log";

export type Readiness = { ready: true } | { ready: false; reason: string };

const answerWithinMs = 3_000;

async function migrationsMissing(sql: postgres.Sql): Promise<string[]> {
  const applied = await sql<Array<{ created_at: string }>>`select created_at::text from drizzle.__drizzle_migrations`.catch((error: { code?: string }) => {
    // No record table at all: nothing was ever migrated.
    if (error.code === "42P01" || error.code === "3F000") return [];
    throw error;
  });
  const done = new Set(applied.map((row) => row.created_at));
  return journal.entries.filter((entry) => !done.has(String(entry.when))).map((entry) => entry.tag);
}

const checking = new WeakMap<postgres.Sql, Promise<string[]>>();

/** The database's part of readiness, for the database `sql` connects to. */
export async function databaseReadiness(sql: postgres.Sql): Promise<Readiness> {
  let check = checking.get(sql);
  if (!check) {
    check = migrationsMissing(sql).finally(() => checking.delete(sql));
    checking.set(sql, check);
  }
  try {
    const missing = await withDeadline(check, answerWithinMs);
    if (missing.length > 0) return { ready: false, reason: `database migrations not applied: ${missing.join(", ")}` };
    return { ready: true };
  } catch (error) {
    // The answer is public (load balancers ask without a token): the reason names no address; the details go to the log only.
    warnUnlessOutage("readiness", "readiness: the database did not answer", error);
    const reason =
      error instanceof DeadlineExceeded
        ? `database did not answer within ${answerWithinMs / 1000} s`
        : (databaseUnavailability(error)?.reason ?? "database check failed (the log says why)");
    return { ready: false, reason };
  }
}
