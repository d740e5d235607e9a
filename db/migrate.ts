import path from "node:path";
import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { Logger, runMigrations } from "graphile-worker";
import { createDatabase } from "./client";
import { ensureHistoryPartitions } from "./partitions";

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
const silent = new Logger(() => () => {});

/**
 * Applies our migrations and graphile-worker's own schema, and makes the
 * history's partitions for today and the days ahead. Safe to run from
 * several processes at once: an advisory lock makes them take turns, and both
 * migrators skip what is already applied.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const { db, sql, close } = createDatabase(url, { max: 1 });
  try {
    await sql`select pg_advisory_lock(hashtext('interview-api:migrate'))`;
    await migrate(db, { migrationsFolder });
    await ensureHistoryPartitions(db, new Date());
    await runMigrations({ connectionString: url, logger: silent });
  } finally {
    await sql`select pg_advisory_unlock(hashtext('interview-api:migrate'))`.catch(() => {});
    await close();
  }
}
