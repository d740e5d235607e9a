import type { Unavailability } from "@/db/availability";
import { log } from "@/server/log";

/**
 * Logs that the database is unavailable once per reason and `quietMs`, with
 * how many failures went unlogged meanwhile: an outage is one line every
 * half minute, not one per request.
 */
export function outageLog(what: string, quietMs = 30_000) {
  const lastLogged = new Map<string, { at: number; unlogged: number }>();
  return (unavailable: Unavailability) => {
    const now = performance.now();
    const last = lastLogged.get(unavailable.reason);
    if (last && now - last.at < quietMs) {
      last.unlogged++;
      return;
    }
    lastLogged.set(unavailable.reason, { at: now, unlogged: 0 });
    log.warn(`${what}: the database is unavailable`, { reason: unavailable.reason, unloggedSinceLastLine: last?.unlogged ?? 0 });
  };
}
