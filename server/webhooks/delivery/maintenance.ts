/**
 * Periodic work (graphile-worker cron): the failure policy for webhooks that
 * get no more attempts, removing chain rows whose message has ended and readying any chain left
 * without a ready head,
 * and catching up fan-out whose job was lost. (The history's day partitions,
 * events' and delivery log's alike, are kept by the worker's
 * tasks/history-partitions.ts.) (Attempts a killed worker left unfinished need
 * nothing: their lease runs out and the dispatcher claims them again.)
 */
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { webhooks } from "@/db/schema";
import { enqueueFanOut } from "@/server/jobs/queue";
import type { DeliveryDeps } from "./deps";
import { applyFailurePolicy } from "./failure-policy";
import { companiesBehind } from "./fan-out";
import { announceReady, readyChainHeads, removeEndedChainRows } from "./messages";

export async function runWebhookMaintenance(deps: DeliveryDeps) {
  const { ctx } = deps;
  const now = ctx.clock.now();
  const failing = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.enabled, true), isNotNull(webhooks.failingSince)));
  for (const webhook of failing) await ctx.db.transaction((tx) => applyFailurePolicy(tx, ctx, webhook, now));

  // Every chain has a head (messages.ts); should one ever be left with all
  // its waiting messages held (its head ended by hand, without the recording
  // that readies the next), it would wait for ever: ready it. Found through
  // the chains' rows, each message by its key.
  const chainRowsRemoved = await removeEndedChainRows(ctx.db);
  const unheaded = await ctx.db.execute<{ webhook_id: string; candidate_id: string }>(sql`
    select k.webhook_id, k.candidate_id from webhook_chain_messages k
    join lateral (select held from webhook_messages m where m.id = k.message_id and m.history_at = k.history_at and m.status = 'pending' offset 0) m on true
    group by k.webhook_id, k.candidate_id
    having bool_and(m.held)`);
  const chains = [...unheaded].map((row) => ({ webhookId: row.webhook_id, candidateId: row.candidate_id }));
  if (chains.length > 0)
    await ctx.db.transaction(async (tx) => {
      await readyChainHeads(tx, chains, now);
      await announceReady(tx);
    });

  const behind = await companiesBehind(ctx.db);
  for (const companyId of behind) await enqueueFanOut(ctx.db, companyId);

  return { chainRowsRemoved, chainsReadied: chains.length, fanOutsCaughtUp: behind.length };
}
