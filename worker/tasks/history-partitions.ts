/**
 * The upkeep of the history's day partitions (db/partitions.ts): the events
 * and the delivery log alike, so it is no webhook work. Each minute's
 * maintenance makes the days ahead; each hour drops the days older than the
 * kept 30.
 */
import type { Task } from "graphile-worker";
import { type DayLeft, dropExpiredDays, ensureHistoryPartitions, historyRetentionDays } from "@/db/partitions";
import type { DomainContext } from "@/server/domain/context";
import { log } from "@/server/log";

type PartitionDeps = { ctx: Pick<DomainContext, "db" | "clock"> };

/** Makes every day of the kept history, today and the days ahead that do not exist yet. */
export async function makeHistoryDays({ ctx }: PartitionDeps) {
  const partitions = await ensureHistoryPartitions(ctx.db, ctx.clock.now());
  reportDaysLeft("made", partitions.left);
  return partitions.made;
}

/**
 * Drops the days of history and delivery log past the 30 days, whole
 * partitions at a time: first any row waiting in a DEFAULT partition moves to
 * its day, so it goes with that day. A day is kept, and said in the log,
 * while one of its messages still waits for delivery.
 */
export async function deleteExpiredHistory(deps: PartitionDeps) {
  const now = deps.ctx.clock.now();
  const cutoff = new Date(now.getTime() - historyRetentionDays * 24 * 60 * 60 * 1000);
  await makeHistoryDays(deps);
  const expired = await dropExpiredDays(deps.ctx.db, cutoff);
  reportDaysLeft("dropped", expired.left);
  return { daysDropped: expired.dropped, daysKept: expired.left.map((left) => left.day) };
}

function reportDaysLeft(action: "made" | "dropped", left: DayLeft[]) {
  for (const day of left) log.warn(`A day of history was not ${action} now; the next run tries again`, { ...day });
}

/** Every hour: the delivery log and the event history keep 30 days. */
export const deleteExpiredHistoryTask =
  (deps: PartitionDeps): Task =>
  async () => {
    await deleteExpiredHistory(deps);
  };
