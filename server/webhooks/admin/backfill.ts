/**
 * Sends a webhook the company's history since a time: every event it would
 * have been sent (its event types and interviews) that it has no message for
 * yet, for example events from before it was created or while it was off.
 *
 * The messages are queued like the fan-out's (queue.ts): origin `event`, at
 * most one per webhook and event (the unique index; a concurrent fan-out of
 * the same event adds nothing), at the tail of each candidate's chain, in the
 * history's order among themselves.
 * At most 1,000 per call, oldest first, so repeated calls make progress.
 * Every event it can see is settled: an event still being committed is
 * invisible here and sorts after all of them (server/domain/history-lock.ts),
 * so it is fan-out's, and a candidate's earlier event cannot be overtaken by
 * a later one sent here.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { retryOnDeadlock } from "@/db/deadlocks";
import { webhooks } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { invalidState, notFound } from "@/server/domain/errors";
import { needsScores, scoreConditionTypes } from "../delivery/conditions";
import { eventMessage, type HistoryEventRow, historyEventOf } from "../delivery/messages";
import { enqueueMessages } from "../delivery/queue";

export const maxBackfillBatch = 1000;

type Webhook = typeof webhooks.$inferSelect;
/** The webhook, which must be on. (A webhook turned off after this read gets nothing: queueing checks again, see queue.ts.) */
async function enabledWebhook(db: Executor, companyId: string, webhookId: string) {
  const [webhook] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.companyId, companyId)));
  if (!webhook) throw notFound("webhook", webhookId);
  if (!webhook.enabled) throw invalidState("Turn the webhook on before sending it past events.");
  return webhook;
}

/**
 * The webhook's conditions (conditions.ts) as SQL, the same rules fan-out
 * checks: other event types pass; a score condition reads the candidate's
 * current score, as fan-out does.
 */
function conditionsClause(conditions: Webhook["conditions"]) {
  if (!conditions) return sql``;
  const statusTo = conditions.statusTo
    ? sql`and (e.type <> 'candidate.status_changed' or e.change ->> 'to' in (select jsonb_array_elements_text(${JSON.stringify(conditions.statusTo)}::jsonb)))`
    : sql``;
  if (!needsScores(conditions)) return statusTo;
  const scoreHolds = conditions.minScore === undefined ? sql`false` : sql`c.score >= ${conditions.minScore}`;
  const recommendationHolds = conditions.recommendations
    ? sql`c.recommendation in (select jsonb_array_elements_text(${JSON.stringify(conditions.recommendations)}::jsonb))`
    : sql`false`;
  return sql`${statusTo}
    and (e.type not in (select jsonb_array_elements_text(${JSON.stringify(scoreConditionTypes)}::jsonb)) or exists (
      select 1 from candidates c where c.id = e.candidate_id and c.company_id = e.company_id and (${scoreHolds} or ${recommendationHolds})
    ))`;
}

/** The events since `since` that match the webhook (with its conditions) and that it has no message for, in the history's order. */
const missedEvents = (webhook: Webhook, since: Date) => sql`
  from events e
  where e.company_id = ${webhook.companyId}
    and e.created_at >= ${since.toISOString()}::timestamptz
    and e.type in (select jsonb_array_elements_text(${JSON.stringify(webhook.eventTypes)}::jsonb))
    ${webhook.allInterviews ? sql`` : sql`and e.interview_id in (select jsonb_array_elements_text(${JSON.stringify(webhook.interviewIds)}::jsonb))`}
    ${conditionsClause(webhook.conditions)}
    -- A message of an event has its event's time as history_at (messages.ts): the
    -- events since then have theirs in the days since then, the only days of the log read.
    and not exists (
      select 1 from webhook_messages m
      where m.webhook_id = ${webhook.id} and m.event_id = e.id and m.history_at = e.created_at and m.origin = 'event'
        and m.history_at >= ${since.toISOString()}::timestamptz
    )`;

/** How many messages `backfill` would create now, in all (it sends them 1,000 per call). */
export async function countBackfill(ctx: DomainContext, companyId: string, webhookId: string, since: Date): Promise<{ events: number }> {
  const webhook = await enabledWebhook(ctx.db, companyId, webhookId);
  const [row] = await ctx.db.execute<{ events: number }>(countMissedEvents(webhook, since));
  return { events: row!.events };
}

/** How many events since `since` the webhook has no message for. */
export const countMissedEvents = (webhook: Webhook, since: Date) => sql`select count(*)::int as events ${missedEvents(webhook, since)}`;

/** Enqueues the oldest 1,000 missed events since `since`; `more` says whether some are left for another call. */
export async function backfill(ctx: DomainContext, companyId: string, webhookId: string, since: Date): Promise<{ sent: number; more: boolean }> {
  return retryOnDeadlock(() =>
    ctx.db.transaction(async (tx) => {
      const webhook = await enabledWebhook(tx, companyId, webhookId);
      const missed = [
        ...(await tx.execute<HistoryEventRow>(sql`
        select e.id, e.candidate_id, e.interview_id, e.type, e.tx_id::text as tx, e.seq::text as seq, e.created_at, e.change
        ${missedEvents(webhook, since)}
        order by e.tx_id, e.seq
        limit ${maxBackfillBatch + 1}`)),
      ];
      const batch = missed.slice(0, maxBackfillBatch);
      const sent = await enqueueMessages(
        tx,
        batch.map((row) => eventMessage(ctx.newId, webhook, historyEventOf(row))),
        ctx.clock.now(),
      );
      return { sent: sent.ids.length, more: missed.length > maxBackfillBatch };
    }),
  );
}
