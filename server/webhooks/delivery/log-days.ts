/**
 * The days of the partitioned log (`webhook_messages`, and an event's day in
 * `events`) that a hot statement opens.
 *
 * Why: the worker plans its hot statements once (db/prepared.ts), and a plan
 * that looks a row up by its key prunes the days only as it runs, after the
 * executor has opened every day's partition and index (about 40 per table)
 * at the start of each run, for a handful of rows: 1.2 ms of an idle claim's
 * 1.8, and 0.9 ms of readying a chain. A bound given as parameters prunes
 * the days before anything is opened. So each such lookup also says which
 * days it may find its row in, `inDays(key, days)`:
 *
 * - the recording of a batch, and the fan-out's check of a repeated event:
 *   their own rows' first and last day (`daysOf`);
 * - the claim: the days the ready set spanned when a claim last reported
 *   them (each second; server/runtime/worker/dispatcher.ts). A claim that
 *   chooses a ready row of another day (a new day, a past event sent, a
 *   retry of an older day's message) leaves it and reports the days at
 *   once: the next claim, made at once, takes it;
 * - readying a finished chain's next message: the finished messages' days; a
 *   chain with a waiting message outside them is readied again over every
 *   day (messages.ts).
 */
import { type SQL, sql } from "drizzle-orm";

/** From the first to the last partition key, inclusive, as ISO timestamps (or PostgreSQL's `-infinity` and `infinity`). */
export type Days = { from: string; until: string };

/** Every day: what a statement opens without a narrower bound. */
export const everyDay: Days = { from: "-infinity", until: "infinity" };

/** The first and last of `keys` (ISO timestamps); none gives an empty range. */
export function daysOf(keys: string[]): Days {
  const sorted = [...keys].sort(compare);
  return sorted.length === 0 ? { from: "infinity", until: "-infinity" } : { from: sorted[0]!, until: sorted.at(-1)! };
}

/** The whole UTC days (the log's partitions) from `from`'s to `until`'s: a claim's days, which the next message of today stays within. */
export const wholeDays = (from: string, until: string): Days => ({ from: `${from.slice(0, 10)}T00:00:00.000Z`, until: `${until.slice(0, 10)}T23:59:59.999Z` });

/** Whether `inner` lies within `outer`. */
export const daysWithin = (inner: Days, outer: Days) => compare(inner.from, outer.from) >= 0 && compare(inner.until, outer.until) <= 0;

/** `key` (a partition key) within `days`. */
export const inDays = (key: SQL, days: Days) => sql`${key} between ${days.from}::timestamptz and ${days.until}::timestamptz`;

const rank = (at: string) => (at === "-infinity" ? -Infinity : at === "infinity" ? Infinity : Date.parse(at));
const compare = (a: string, b: string) => rank(a) - rank(b);
