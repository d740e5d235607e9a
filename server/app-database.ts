/**
 * The web app's database: opened at DATABASE_URL on first use, once per
 * process, and kept on globalThis so Next.js hot reloads do not leak pools.
 */
import { createDatabase, type DatabaseHandle, sessionLimits } from "@/db/client";
import { env } from "@/server/env";

const cache = globalThis as unknown as { __database?: DatabaseHandle };

export function appDatabase(): DatabaseHandle {
  if (!cache.__database) {
    if (!env.DATABASE_URL) throw new Error("DATABASE_URL is not set; start the app with `npm run dev` or `npm start`.");
    cache.__database = createDatabase(env.DATABASE_URL, { max: env.WEB_DATABASE_POOL_SIZE, limits: sessionLimits.web });
  }
  return cache.__database;
}
