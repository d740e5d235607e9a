import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { type MigrationMeta, readMigrationFiles } from "drizzle-orm/migrator";
import { Logger, runMigrations } from "graphile-worker";
import type postgres from "postgres";
import { createDatabase, type Database } from "./client";
import { hasSqlState } from "./deadlocks";
import { ensureHistoryPartitions } from "./partitions";

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
const silent = new Logger(() => () => {});

/**
 * How long one statement of a migration may wait for a table's lock. A
 * statement waiting for an ACCESS EXCLUSIVE lock (most ALTER TABLEs) queues
 * every later reader of that table behind it, so a migration stuck behind one
 * long transaction (a report, a session left open) would stop the API with
 * it. Past this wait the migration gives up its place, rolls back, lets the
 * queue through and tries again (docs/operations.md, "Migrations").
 */
export const migrationLockTimeoutMs = 500;
/** The pause before the next try: doubled each time from the first, up to the last. */
const retryPauseMs = { first: 500, last: 15_000 };
/** Tries over this long, then the start fails with the sessions it waited for. */
const giveUpAfterMs = 10 * 60_000;
const lockNotAvailable = "55P03";

/** One try that gave up a lock wait, with the sessions that may have held the lock, for the log. */
export type MigrationLockWait = { attempt: number; pauseMs: number; blockers: string[] };

export type MigrateOptions = {
  /** The last migration to apply, by its tag (`0000_baseline`); every one when not given. */
  through?: string;
  /** Where the migrations are read from: db/migrations when not given (a test's copy of it, with a migration of its own added). */
  migrationsFolder?: string;
  /** Called each time the migrations gave up a lock wait and will try again. */
  onLockWait?: (wait: MigrationLockWait) => void;
};

/**
 * Applies our migrations and graphile-worker's own schema, and makes the
 * history's partitions for today and the days ahead. Safe to run from
 * several processes at once, and through a pooler in transaction mode: each
 * step takes its turn within one transaction of its own (graphile-worker's
 * migrations too), and none holds anything between transactions.
 */
export async function migrateDatabase(url: string, options: MigrateOptions = {}): Promise<void> {
  const { db, sql: plain, close } = createDatabase(url, { max: 1 });
  try {
    await applyMigrations(db, plain, pendingFiles(options.migrationsFolder ?? migrationsFolder, options.through), options.onLockWait);
    await ensureHistoryPartitions(db, new Date());
    await runMigrations({ connectionString: url, logger: silent });
  } finally {
    await close();
  }
}

/** The migration files of `folder` in order, up to and with `through`; its journal's tags name them in the same order. */
function pendingFiles(folder: string, through: string | undefined): MigrationMeta[] {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  if (through === undefined) return migrations;
  const journal = JSON.parse(readFileSync(path.join(folder, "meta/_journal.json"), "utf8")) as { entries: Array<{ tag: string }> };
  const last = journal.entries.findIndex((entry) => entry.tag === through);
  if (last < 0) throw new Error(`No migration named ${through} in ${folder}`);
  return migrations.slice(0, last + 1);
}

/**
 * drizzle's migrator, kept in its own record (`drizzle.__drizzle_migrations`,
 * a row per migration applied, by the folder's timestamp), but reading that
 * record inside the transaction that holds the migration lock. drizzle's own
 * reads it before its transaction begins, so its callers had to hold a
 * session lock around it, which a pooler in transaction mode can leave held
 * on a connection no one releases it from. A second process waits for the
 * first one's transaction, then finds nothing left to apply.
 *
 * Every pending migration is applied in that one transaction, each lock wait
 * in it limited to `migrationLockTimeoutMs`; a wait that runs out rolls all
 * of them back, to be tried again after a pause.
 */
async function applyMigrations(db: Database, plain: postgres.Sql, migrations: MigrationMeta[], onLockWait?: MigrateOptions["onLockWait"]) {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction(async (tx) => {
        // Processes waiting for each other's migrations wait on this lock, not on lock_timeout.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('interview-api:migrate'))`);
        await tx.execute(sql.raw(`set local lock_timeout = ${migrationLockTimeoutMs}`));
        await tx.execute(sql`create schema if not exists drizzle`);
        await tx.execute(sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`);
        const [latest] = await tx.execute<{ created_at: string }>(sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`);
        for (const migration of migrations) {
          if (latest && Number(latest.created_at) >= migration.folderMillis) continue;
          for (const statement of migration.sql) await tx.execute(sql.raw(statement));
          await tx.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`);
        }
      });
      return;
    } catch (error) {
      if (!hasSqlState(error, lockNotAvailable)) throw error;
      const blockers = await longTransactions(plain);
      const pauseMs = Math.min(retryPauseMs.first * 2 ** (attempt - 1), retryPauseMs.last);
      if (Date.now() + pauseMs - started > giveUpAfterMs) {
        throw new Error(
          `Migrations waited ${Math.round((Date.now() - started) / 1000)} s for locks held by: ${blockers.join("; ") || "sessions that have ended"}`,
        );
      }
      onLockWait?.({ attempt, pauseMs, blockers });
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}

/**
 * The other sessions of this database in a transaction for longer than a
 * migration waits: whoever held the lock is among them (the lock itself is
 * no longer known once the migration rolled back).
 */
async function longTransactions(plain: postgres.Sql): Promise<string[]> {
  const rows = await plain<Array<{ pid: number; application: string; state: string; seconds: number; query: string }>>`
    select pid, application_name as application, state, extract(epoch from now() - xact_start)::int as seconds, left(query, 120) as query
    from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and xact_start < now() - make_interval(secs => ${migrationLockTimeoutMs / 1000})
    order by xact_start`;
  return rows.map((row) => `pid ${row.pid} (${row.application || "no application name"}, ${row.state} in a transaction for ${row.seconds} s: ${row.query})`);
}
