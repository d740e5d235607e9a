/**
 * Periodic work (graphile-worker cron): the failure policy for webhooks that
 * get no more attempts, readying any chain left without a ready head,
 * catching up fan-out whose job was lost, and deleting the delivery log and
 * events older than 30 days. (Attempts a killed worker left unfinished need
 * nothing: their lease runs out and the dispatcher claims them again.)
 */
import { and, eq, isNotNull, lt, or, sql } from "drizzle-orm";
import { events, webhookMessages, webhooks } from "@/db/schema";
import { enqueueFanOut } from "@/server/jobs/queue";
import { logRetentionDays } from "./delivery-log";
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
      await readyChainHeads(tx, chains);
      await announceReady(tx);
    });

  const behind = await companiesBehind(ctx.db);
  for (const companyId of behind) await enqueueFanOut(ctx.db, companyId);
  return { chainsReadied: chains.length, fanOutsCaughtUp: behind.length };
}

export async function deleteExpiredHistory(deps: DeliveryDeps) {
  const cutoff = new Date(deps.ctx.clock.now().getTime() - logRetentionDays * 24 * 60 * 60 * 1000);
  const messages = await deps.ctx.db
    .delete(webhookMessages)
    .where(and(lt(webhookMessages.createdAt, cutoff), or(eq(webhookMessages.status, "succeeded"), eq(webhookMessages.status, "failed"))))
    .returning({ id: webhookMessages.id });
  const expired = await deps.ctx.db.delete(events).where(lt(events.createdAt, cutoff)).returning({ id: events.id });
  return { messages: messages.length, events: expired.length };
}
