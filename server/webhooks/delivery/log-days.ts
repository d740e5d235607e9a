/**
 * The days of the partitioned log (`webhook_messages`, and an event's day in
 * `events`) that a hot statement's lookups by key open.
 *
 * Why: the worker plans its hot statements once (db/prepared.ts), and a plan
 * that looks a row up by its key prunes the days only as it runs, after the
 * executor has opened every day's partition and index (about 40 per table)
 * at the start of each run, for a handful of rows: 1.2 ms of an idle claim's
 * 1.8, and half of readying a chain. Whole days given as parameters prune
 * the days before anything is opened. So each such lookup also says which
 * days it may find its row in, `inDays(key, days)`:
 *
 * - the recording of a batch: its rows' days (`daysOf`);
 * - the claim: the days the ready set spanned when a claim last reported
 *   them (each second; server/runtime/worker/dispatcher.ts). A claim that
 *   chooses a ready row of another day (a new day, a past event sent, a
 *   retry of an older day's message) leaves it and reports the days at
 *   once: the next claim, made at once, takes it;
 * - readying a finished chain's next message: the finished messages' days
 *   through today; a chain with a waiting message outside them (a past
 *   event sent behind it) is readied again over every day (messages.ts).
 */
import { type SQL, sql } from "drizzle-orm";

/** From the start of the first day to the end of the last, inclusive (partition keys have milliseconds), as ISO timestamps or PostgreSQL's `-infinity` and `infinity`. */
export type Days = { from: string; until: string };

/** Every day: what a statement opens without a narrower bound. */
export const everyDay: Days = { from: "-infinity", until: "infinity" };

/** The whole UTC days (the log's partitions) from the first of `keys` (ISO timestamps) to the last; none gives no day. */
export function daysOf(keys: string[]): Days {
  const times = keys.map((key) => {
    const time = Date.parse(key);
    if (Number.isNaN(time)) throw new Error(`not a timestamp: ${key}`);
    return time;
  });
  if (times.length === 0) return { from: "infinity", until: "-infinity" };
  const day = (time: number) => new Date(time).toISOString().slice(0, 10);
  return { from: `${day(Math.min(...times))}T00:00:00.000Z`, until: `${day(Math.max(...times))}T23:59:59.999Z` };
}

/**
 * Where readying a finished batch's chains looks (`finished`: the finished
 * messages' keys): their whole days through today. A chain's next message
 * usually came later, from another transaction; one of an event committed
 * out of its time order may be earlier on the same day.
 */
export const readyingDays = (finished: string[], now: Date) => daysOf([...finished, now.toISOString()]);

/** Whether `inner` lies within `outer`. */
export const daysWithin = (inner: Days, outer: Days) => rank(inner.from) >= rank(outer.from) && rank(inner.until) <= rank(outer.until);

/** `key` (a partition key) within `days`. */
export const inDays = (key: SQL, days: Days) => sql`${key} between ${days.from}::timestamptz and ${days.until}::timestamptz`;

const rank = (at: string) => (at === "-infinity" ? -Infinity : at === "infinity" ? Infinity : Date.parse(at));
