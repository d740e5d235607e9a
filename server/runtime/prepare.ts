import path from "node:path";
import { migrateDatabase, migrationLockTimeoutMs } from "@/db/migrate";
import type { Env } from "@/server/env";
import { log } from "@/server/log";
import { type RunningDatabase, startEmbeddedPostgres } from "./database";

/**
 * The database every entry point (web, worker, CLI) starts from: the server at
 * DATABASE_URL, or the embedded one, with all migrations applied.
 */
export async function prepareDatabase(env: Env): Promise<RunningDatabase> {
  const running = env.DATABASE_URL
    ? { url: env.DATABASE_URL, owned: false, stop: async () => {} }
    : await startEmbeddedPostgres({
        directory: path.join(env.DATA_DIR, "postgres"),
        port: env.EMBEDDED_POSTGRES_PORT,
        database: "interviews",
      });
  try {
    await migrateDatabase(running.url, {
      onLockWait: (wait) => log.warn("migrations gave up a lock wait and will try again", { ...wait, lockTimeoutMs: migrationLockTimeoutMs }),
    });
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}
