import { databaseUnavailability, type Unavailability } from "@/db/availability";
import { log } from "@/server/log";

/** How long a process stays quiet about an outage it has logged. */
const quietMs = 30_000;

/** Per reason: when this process last logged it, and the failures since. */
const lastLogged = new Map<string, { at: number; unlogged: number }>();

/**
 * Logs that the database is unavailable once per reason and half minute
 * for the whole process, whichever part of it (`what`: API requests, the
 * dispatcher's claims, a job…) failed, with how many failures went unlogged
 * meanwhile: an outage is one line every half minute, not one per request,
 * poll or job.
 */
export function logOutage(what: string, unavailable: Unavailability) {
  const now = performance.now();
  const last = lastLogged.get(unavailable.reason);
  if (last && now - last.at < quietMs) {
    last.unlogged++;
    return;
  }
  lastLogged.set(unavailable.reason, { at: now, unlogged: 0 });
  log.warn(`${what}: the database is unavailable`, { reason: unavailable.reason, unloggedSinceLastLine: last?.unlogged ?? 0 });
}

/** Logs `error` as `message`'s warning, or, when it means the database is unavailable, as part of that outage (`logOutage`). */
export function warnUnlessOutage(what: string, message: string, error: unknown, fields: Record<string, unknown> = {}) {
  const unavailable = databaseUnavailability(error);
  if (unavailable) logOutage(what, unavailable);
  else log.warn(message, { ...fields, error });
}
