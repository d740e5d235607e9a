/**
 * The web app's database and its clock: opened at DATABASE_URL on first use,
 * once per process, and kept on globalThis so Next.js hot reloads do not leak
 * pools or timers.
 */
import { createDatabase, type DatabaseHandle, sessionLimits } from "@/db/client";
import { type DatabaseClock, databaseClock } from "@/server/domain/database-clock";
import { env } from "@/server/env";

const cache = globalThis as unknown as { __database?: DatabaseHandle; __clock?: DatabaseClock };

export function appDatabase(): DatabaseHandle {
  if (!cache.__database) {
    if (!env.DATABASE_URL) throw new Error("DATABASE_URL is not set; start the app with `npm run dev` or `npm start`.");
    cache.__database = createDatabase(env.DATABASE_URL, { max: env.WEB_DATABASE_POOL_SIZE, limits: sessionLimits.web });
  }
  return cache.__database;
}

/**
 * The database's clock (server/domain/database-clock.ts): a download link
 * one web process signs is checked by another, and a resend is claimed by
 * workers on other hosts. The web server awaits its first reading before it listens.
 */
export function appClock(): DatabaseClock {
  cache.__clock ??= databaseClock(appDatabase().sql);
  return cache.__clock;
}
