/**
 * Forcing the interleavings of a company's history writers
 * (server/domain/history-lock.ts): a writer held in the middle of its
 * transaction, after it took the company's lock, and a count of the sessions
 * waiting for such a lock.
 */
import type postgres from "postgres";
import type { DomainContext } from "@/server/domain/context";

/**
 * A storage whose next writes wait until `release()`: a candidate change that
 * stores a file (a recording) then holds its transaction, and so the company's
 * history lock, open. `entered` resolves once a write is waiting.
 */
export function heldStorage(storage: DomainContext["storage"]) {
  let release!: () => void;
  let enter!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held: DomainContext["storage"] = {
    ...storage,
    put: async (key, bytes) => {
      enter();
      await gate;
      await storage.put(key, bytes);
    },
  };
  return { storage: held, entered, release };
}

/** Sessions of this database waiting for an advisory lock (a history lock held by another writer). */
export async function waitingForHistoryLocks(sql: postgres.Sql): Promise<number> {
  const [row] = await sql<Array<{ waiting: number }>>`
    select count(*)::int as waiting from pg_locks l join pg_stat_activity a on a.pid = l.pid
    where a.datname = current_database() and l.locktype = 'advisory' and not l.granted`;
  return row!.waiting;
}
