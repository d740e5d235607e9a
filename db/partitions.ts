/**
 * The history (events) and the delivery log (webhook_messages,
 * webhook_attempts) are partitioned by UTC day (the baseline migration): one table per
 * day and parent (`events_20261123`), and a DEFAULT partition each.
 *
 * - Days are made ahead: every day of the kept 30 days, today and the next
 *   `daysAhead`, by every maintenance run (each minute) and at every start
 *   (db/migrate.ts). So a row of the kept history (a simulated past too)
 *   lands in its day; one whose day does not exist (a clock far off) lands
 *   in the DEFAULT partition, so no insert ever fails, and making its day
 *   moves it there. A day made takes the storage parameters (autovacuum
 *   settings) of its table's newest day (history_partition_create), so a setting made
 *   on the days there are holds for the days to come.
 * - Retention drops whole days (detach, then drop): a day goes when all of
 *   it is older than the cutoff and none of its messages is still pending.
 *   A message of an event lives in its event's day, and attempts in their
 *   message's day, so the three tables' days go together.
 *
 * Making and dropping a day take the parent's ACCESS EXCLUSIVE lock for a few
 * milliseconds; `lock_timeout` bounds the wait behind a long reader, and a day
 * that could not be locked is tried again by the next run.
 */
import { sql } from "drizzle-orm";
import type { Database } from "./client";

/** Each partitioned table and its partition key, in the order their days are dropped (messages first: a day with a waiting message stays whole). */
export const partitionedTables = [
  { table: "webhook_messages", key: "history_at" },
  { table: "webhook_attempts", key: "history_at" },
  { table: "events", key: "created_at" },
] as const;

export type PartitionedTable = (typeof partitionedTables)[number]["table"];

/** How long the history and the delivery log are kept (the spec's 30 days). */
export const historyRetentionDays = 30;

/** How many days after today already have their partitions. */
export const daysAhead = 7;

const dayMs = 24 * 3600_000;
const lockTimeout = "1s";

/** `YYYY-MM-DD` of the UTC day of `at`. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

const dayOfSuffix = (suffix: string) => `${suffix.slice(0, 4)}-${suffix.slice(4, 6)}-${suffix.slice(6, 8)}`;

/** The day partitions that exist, as `table → set of YYYY-MM-DD`. */
export async function existingDays(db: Database): Promise<Map<PartitionedTable, Set<string>>> {
  const rows = await db.execute<{ parent: PartitionedTable; child: string }>(sql`
    select p.relname as parent, c.relname as child
    from pg_inherits h join pg_class p on p.oid = h.inhparent join pg_class c on c.oid = h.inhrelid
    where p.relname in (${sql.join(
      partitionedTables.map(({ table }) => sql`${table}`),
      sql`, `,
    )}) and p.relkind = 'p'`);
  const days = new Map<PartitionedTable, Set<string>>(partitionedTables.map(({ table }) => [table, new Set<string>()]));
  for (const row of rows) {
    const suffix = row.child.slice(row.parent.length + 1);
    if (/^\d{8}$/.test(suffix)) days.get(row.parent)!.add(dayOfSuffix(suffix));
  }
  return days;
}

/** A day that could not be made or dropped now (its lock was busy, or a message in it still waits); the next run tries again. */
export type DayLeft = { table: PartitionedTable; day: string; reason: string };

/** Runs `work` in a transaction with a bounded lock wait; a lock not granted in time leaves the day to the next run. */
async function withLockTimeout(db: Database, work: (tx: Database) => Promise<void>): Promise<string | null> {
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = '${lockTimeout}'`));
      await work(tx as unknown as Database);
    });
    return null;
  } catch (error) {
    const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    if (code === "55P03") return `its table was busy for over ${lockTimeout}`;
    throw error;
  }
}

/**
 * Makes the partitions of every table for the days from the retention cutoff's
 * to `daysAhead` after today, and the day of any row found in a DEFAULT
 * partition (which moves it there). Returns the partitions made and the days
 * left for the next run.
 */
export async function ensureHistoryPartitions(db: Database, now: Date): Promise<{ made: string[]; left: DayLeft[] }> {
  const existing = await existingDays(db);
  const ahead = Array.from({ length: historyRetentionDays + daysAhead + 1 }, (_, index) =>
    utcDay(new Date(now.getTime() + (index - historyRetentionDays) * dayMs)),
  );
  const made: string[] = [];
  const left: DayLeft[] = [];
  for (const { table, key } of partitionedTables) {
    const waiting = await db.execute<{ day: string }>(
      sql`select distinct to_char(${sql.identifier(key)} at time zone 'UTC', 'YYYY-MM-DD') as day from ${sql.identifier(`${table}_default`)}`,
    );
    const wanted = new Set([...ahead, ...[...waiting].map((row) => row.day)]);
    for (const day of [...wanted].sort()) {
      if (existing.get(table)!.has(day)) continue;
      const busy = await withLockTimeout(db, async (tx) => {
        await tx.execute(sql`select history_partition_create(${table}, ${key}, ${day}::date)`);
      });
      if (busy) left.push({ table, day, reason: busy });
      else made.push(`${table}_${day.replaceAll("-", "")}`);
    }
  }
  return { made, left };
}

/** How many messages of `day` are still queued (webhook-queue.ts). */
async function waitingInDay(db: Database, day: string): Promise<number> {
  const [row] = await db.execute<{ count: number }>(sql`
    select count(*)::int as count from webhook_queue q
    where q.history_at >= ${day}::date::timestamp at time zone 'UTC' and q.history_at < (${day}::date + 1)::timestamp at time zone 'UTC'`);
  return row!.count;
}

/** A day of messages not dropped because some still wait for delivery. */
class MessagesWaiting extends Error {
  constructor(readonly count: number) {
    super(`${count} of its messages still wait for delivery`);
  }
}

/**
 * Drops every day whose end is at or before `cutoff` (all its rows are past
 * retention): messages first, then their attempts, then the events. Each
 * table's day goes in a transaction of its own, which holds one parent's lock
 * only, so it cannot deadlock with the hot path. The messages' day is checked
 * for waiting messages before it is detached, and again after (no message
 * can enter it then): if one waits, nothing of the day goes, and the day is
 * said to be left.
 * Returns the days dropped.
 */
export async function dropExpiredDays(db: Database, cutoff: Date): Promise<{ dropped: string[]; left: DayLeft[] }> {
  const existing = await existingDays(db);
  const expired = new Set<string>();
  for (const days of existing.values()) for (const day of days) if (new Date(`${day}T00:00:00Z`).getTime() + dayMs <= cutoff.getTime()) expired.add(day);
  const dropped: string[] = [];
  const left: DayLeft[] = [];
  for (const day of [...expired].sort()) {
    const suffix = day.replaceAll("-", "");
    let busy: DayLeft | null = null;
    for (const { table } of partitionedTables) {
      if (!existing.get(table)!.has(day)) continue;
      const partition = sql.identifier(`${table}_${suffix}`);
      const assertNoneWaits = async (tx: Database) => {
        if (table !== "webhook_messages") return;
        const waiting = await waitingInDay(tx, day);
        if (waiting > 0) throw new MessagesWaiting(waiting);
      };
      try {
        // Checked first without the lock, so a day that keeps a waiting message is left without stopping deliveries for the check.
        await assertNoneWaits(db);
        const reason = await withLockTimeout(db, async (tx) => {
          await tx.execute(sql`alter table ${sql.identifier(table)} detach partition ${partition}`);
          await assertNoneWaits(tx);
          await tx.execute(sql`drop table ${partition}`);
        });
        if (reason) busy = { table, day, reason };
      } catch (error) {
        if (!(error instanceof MessagesWaiting)) throw error;
        busy = { table, day, reason: error.message };
      }
      if (busy) break;
    }
    if (busy) left.push(busy);
    else dropped.push(day);
  }
  return { dropped, left };
}
