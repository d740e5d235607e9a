/**
 * Periodic work (graphile-worker cron): the failure policy for webhooks that
 * get no more attempts, re-queuing attempts a killed worker left unfinished,
 * catching up fan-out whose job was lost, and deleting the delivery log and
 * events older than 30 days.
 */
import { and, eq, isNotNull, lt, or, sql } from "drizzle-orm";
import { events, webhookMessages, webhooks } from "@/db/schema";
import { enqueueFanOut, scheduleDelivery } from "@/server/jobs/queue";
import { leaseMs } from "./deliver";
import { logRetentionDays } from "./delivery-log";
import type { DeliveryDeps } from "./deps";
import { applyFailurePolicy } from "./failure-policy";
import { companiesBehind } from "./fan-out";

export async function runWebhookMaintenance(deps: DeliveryDeps) {
  const { ctx } = deps;
  const now = ctx.clock.now();
  const failing = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.enabled, true), isNotNull(webhooks.failingSince)));
  for (const webhook of failing) await ctx.db.transaction((tx) => applyFailurePolicy(tx, ctx, webhook, now));

  // Interrupted attempts (lease expired) and due messages whose job went
  // missing go again now. Only chain heads: held ones follow their predecessor.
  const stuck = await ctx.db.execute<{ id: string }>(sql`
    update webhook_messages m set attempt_started_at = null
    where m.status = 'pending'
      and m.next_attempt_at <= ${new Date(now.getTime() - leaseMs()).toISOString()}::timestamptz
      and (m.attempt_started_at is null or m.attempt_started_at <= ${new Date(now.getTime() - leaseMs()).toISOString()}::timestamptz)
      and not exists (
        select 1 from webhook_messages e
        where e.webhook_id = m.webhook_id and e.candidate_id = m.candidate_id and e.status = 'pending'
          and (e.event_tx_id, e.event_seq, e.seq) < (m.event_tx_id, m.event_seq, m.seq)
      )
    returning m.id`);
  for (const { id } of stuck) await scheduleDelivery(ctx.db, id, now);

  const behind = await companiesBehind(ctx.db);
  for (const companyId of behind) await enqueueFanOut(ctx.db, companyId);
  return { requeued: [...stuck].length, fanOutsCaughtUp: behind.length };
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
