/**
 * Bounds for the hot path's lookups of a message by its key in the
 * partitioned log (`webhook_messages`, and an event's day in `events`), so
 * that each statement opens only the days that can hold what it looks up.
 *
 * Why: the worker plans these statements once (db/prepared.ts), and a plan
 * that joins a row to the log by its key prunes the days only as it runs. So
 * each run first opened every day's partition and index (about 40 per table)
 * for a handful of rows: 1.2 ms of a claim's 1.8, on an idle server, and the
 * same again in the readying of chains and the fan-out. A bound that
 * PostgreSQL can evaluate as the statement starts (a parameter, or a stable
 * function that it does not inline) prunes the days before they are opened.
 *
 * - `inWaitingDays`: for a message found through the ready set or the chains'
 *   rows. Its bounds are the first and last partition key among those rows
 *   (migration 0021), read in the statement's own snapshot, which is where
 *   the statement finds the rows it then looks up.
 * - `inDaysOf`: for keys the caller holds (a batch's outcomes, the events a
 *   fan-out turns into messages): their first and last, as parameters.
 */
import { type SQL, sql } from "drizzle-orm";

/** `key` (a partition key column, as SQL text) within the days of the waiting messages; text, for the statements kept as text (parked-leases.ts). */
export const inWaitingDays = (key: string) => `${key} between webhook_waiting_from() and webhook_waiting_until()`;

/** `key` within the first and last of `keys` (ISO timestamps; none gives an empty range). */
export function inDaysOf(key: SQL, keys: string[]): SQL {
  const sorted = [...keys].sort();
  return sql`${key} between ${sorted[0] ?? null}::timestamptz and ${sorted.at(-1) ?? null}::timestamptz`;
}
