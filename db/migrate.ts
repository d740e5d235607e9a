import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { Logger, runMigrations } from "graphile-worker";
import { createDatabase, type Database } from "./client";
import { ensureHistoryPartitions } from "./partitions";

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
const silent = new Logger(() => () => {});

/**
 * Applies our migrations and graphile-worker's own schema, and makes the
 * history's partitions for today and the days ahead. Safe to run from
 * several processes at once, and through a pooler in transaction mode: each
 * step takes its turn within one transaction of its own (graphile-worker's
 * migrations too), and none holds anything between transactions.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const { db, close } = createDatabase(url, { max: 1 });
  try {
    await applyMigrations(db);
    await ensureHistoryPartitions(db, new Date());
    await runMigrations({ connectionString: url, logger: silent });
  } finally {
    await close();
  }
}

/**
 * drizzle's migrator, kept in its own record (`drizzle.__drizzle_migrations`,
 * a row per migration applied, by the folder's timestamp), but reading that
 * record inside the transaction that holds the migration lock. drizzle's own
 * reads it before its transaction begins, so its callers had to hold a
 * session lock around it, which a pooler in transaction mode can leave held
 * on a connection no one releases it from. A second process waits for the
 * first one's transaction, then finds nothing left to apply.
 */
async function applyMigrations(db: Database): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder });
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('interview-api:migrate'))`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`);
    const [latest] = await tx.execute<{ created_at: string }>(sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`);
    for (const migration of migrations) {
      if (latest && Number(latest.created_at) >= migration.folderMillis) continue;
      for (const statement of migration.sql) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`);
    }
  });
}
