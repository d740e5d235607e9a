/**
 * Periodic work (graphile-worker cron): the failure policy for webhooks that
 * get no more attempts, readying any chain left without a ready head,
 * catching up fan-out whose job was lost, making the history's partitions
 * ahead, and dropping the days of the delivery log and events older than 30
 * days (db/partitions.ts). (Attempts a killed worker left unfinished need
 * nothing: their lease runs out and the dispatcher claims them again.)
 */
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { type DayLeft, dropExpiredDays, ensureHistoryPartitions } from "@/db/partitions";
import { webhooks } from "@/db/schema";
import { enqueueFanOut } from "@/server/jobs/queue";
import { log } from "@/server/log";
import { logRetentionDays } from "../views/delivery-log";
import type { DeliveryDeps } from "./deps";
import { applyFailurePolicy } from "./failure-policy";
import { companiesBehind } from "./fan-out";
import { announceReady, readyChainHeads } from "./messages";

export async function runWebhookMaintenance(deps: DeliveryDeps) {
  const { ctx } = deps;
  const now = ctx.clock.now();
  const failing = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.enabled, true), isNotNull(webhooks.failingSince)));
  for (const webhook of failing) await ctx.db.transaction((tx) => applyFailurePolicy(tx, ctx, webhook, now));

  // Every chain has a ready head (messages.ts); should one ever be left
  // without, it would wait for ever: ready it.
  const unheaded = await ctx.db.execute<{ webhook_id: string; candidate_id: string }>(sql`
    select webhook_id, candidate_id from webhook_messages
    where status = 'pending' and candidate_id is not null
    group by webhook_id, candidate_id
    having bool_and(held)`);
  const chains = [...unheaded].map((row) => ({ webhookId: row.webhook_id, candidateId: row.candidate_id }));
  if (chains.length > 0)
    await ctx.db.transaction(async (tx) => {
      await readyChainHeads(tx, chains, now);
      await announceReady(tx);
    });

  const behind = await companiesBehind(ctx.db);
  for (const companyId of behind) await enqueueFanOut(ctx.db, companyId);

  const partitions = await ensureHistoryPartitions(ctx.db, now);
  reportDaysLeft("made", partitions.left);
  return { chainsReadied: chains.length, fanOutsCaughtUp: behind.length, partitionsMade: partitions.made };
}

/**
 * Drops the days of history and delivery log past the 30 days, whole
 * partitions at a time: first any row waiting in a DEFAULT partition moves to
 * its day, so it goes with that day. A day is kept, and said in the log,
 * while one of its messages still waits for delivery.
 */
export async function deleteExpiredHistory(deps: DeliveryDeps) {
  const now = deps.ctx.clock.now();
  const cutoff = new Date(now.getTime() - logRetentionDays * 24 * 60 * 60 * 1000);
  const partitions = await ensureHistoryPartitions(deps.ctx.db, now);
  reportDaysLeft("made", partitions.left);
  const expired = await dropExpiredDays(deps.ctx.db, cutoff);
  reportDaysLeft("dropped", expired.left);
  return { daysDropped: expired.dropped, daysKept: expired.left.map((left) => left.day) };
}

function reportDaysLeft(action: "made" | "dropped", left: DayLeft[]) {
  for (const day of left) log.warn(`A day of history was not ${action} now; the next run tries again`, { ...day });
}
