import path from "node:path";
import { type Unavailability, whileUnavailable } from "@/db/availability";
import { createDatabase } from "@/db/client";
import { migrateDatabase, migrationLockTimeoutMs } from "@/db/migrate";
import { renderUnrenderedCandidates } from "@/server/domain/stored-candidates";
import type { Env } from "@/server/env";
import { log } from "@/server/log";
import { type RunningDatabase, startEmbeddedPostgres } from "./embedded-postgres";

/**
 * The database every entry point (web, worker, CLI) starts from: the server at
 * DATABASE_URL, or the embedded one, with all migrations applied and every
 * candidate's API JSON rendered (server/domain/stored-candidates.ts).
 *
 * Given `onUnavailable`, a database that refuses or cannot take a connection
 * yet (starting, failing over, out of slots, not reachable) is waited for,
 * each failure reported to it: a long-running process that exited instead
 * would be restarted into the same refusal, over and over. The CLI does not
 * wait: its operator is there to read why.
 */
export async function prepareDatabase(env: Env, onUnavailable?: (unavailable: Unavailability) => void): Promise<RunningDatabase> {
  const running = env.DATABASE_URL
    ? { url: env.DATABASE_URL, owned: false, stop: async () => {} }
    : await startEmbeddedPostgres({
        directory: path.join(env.DATA_DIR, "postgres"),
        port: env.EMBEDDED_POSTGRES_PORT,
        database: "interviews",
      });
  const migrateAndRender = async () => {
    await migrateDatabase(running.url, {
      onLockWait: (wait) => log.warn("migrations gave up a lock wait and will try again", { ...wait, lockTimeoutMs: migrationLockTimeoutMs }),
    });
    await renderAll(running.url);
  };
  try {
    await (onUnavailable ? whileUnavailable(migrateAndRender, Number.POSITIVE_INFINITY, onUnavailable) : migrateAndRender());
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}

/** Renders the candidates stored before their API JSON was (a no-op once done: one indexed read). */
async function renderAll(url: string) {
  const { db, close } = createDatabase(url, { max: 1 });
  try {
    const rendered = await renderUnrenderedCandidates(db);
    if (rendered > 0) log.info("rendered the API JSON of candidates stored without it", { candidates: rendered });
  } finally {
    await close();
  }
}
