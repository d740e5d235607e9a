import type { Database } from "@/db/client";
import { env } from "@/server/env";
import { type IdGenerator, newId } from "@/server/ids";
import { type FileStorage, localFileStorage } from "@/server/storage/file-storage";

export type Clock = { now: () => Date };

export const systemClock: Clock = { now: () => new Date() };

/**
 * What every domain operation needs. Tests and the simulator replace the clock
 * (to play history at its real times) and the id generator (to be seeded).
 */
export type DomainContext = {
  db: Database;
  /**
   * The clock of every decision that processes must agree on: the service
   * processes give the database's (database-clock.ts), which all of them share.
   */
  clock: Clock;
  /**
   * This host's own clock, for the one time other parties compare with
   * theirs: a webhook signature's `t`, which receivers check against their
   * clocks (hosts keep time with NTP; docs/operations.md).
   */
  hostClock: Clock;
  storage: FileStorage;
  newId: IdGenerator;
};

export function createDomainContext(db: Database, overrides: Partial<Omit<DomainContext, "db">> = {}): DomainContext {
  return {
    db,
    clock: overrides.clock ?? systemClock,
    hostClock: overrides.hostClock ?? systemClock,
    storage: overrides.storage ?? localFileStorage(env.FILE_STORAGE_DIR),
    newId: overrides.newId ?? newId,
  };
}
