/**
 * The one way a message enters the log: inserted due now, and ready for the
 * dispatcher when it heads its (webhook, candidate) chain, that is, none of
 * the chain's waiting messages comes before it in the history's order
 * (transaction, then sequence). The rest are `held`, and released one by one
 * as each predecessor finishes (deliver.ts).
 *
 * The chains' waiting messages are locked before deciding which new message
 * heads its chain, so a predecessor finishing at this moment either is seen
 * finished here, or waits for this commit and then sees, and releases, the
 * new message. Samples belong to no chain and are always ready. An event's
 * second message to the same webhook is skipped (a unique index, which holds
 * because every message of an event has the event's time as `history_at`,
 * the log's partition key).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { executePrepared } from "@/db/prepared";
import { type EventType, webhookMessages, type webhooks } from "@/db/schema";
import type { IdGenerator } from "@/server/ids";

/** The channel that wakes the dispatchers when messages become ready now; sent with the commit that makes them ready. */
export const readyChannel = "webhook_messages_ready";

export async function announceReady(tx: Executor) {
  await tx.execute(sql.raw(`notify ${readyChannel}`));
}

/** A message to add; without `historyAt` (a resend, a sample) it counts from its own creation. */
export type NewMessage = Omit<typeof webhookMessages.$inferInsert, "nextAttemptAt" | "createdAt" | "status" | "attemptCount" | "held">;

/** An event of the history as the log needs it: what it is, whose chain it joins, and its place in the history's order. */
export type HistoryEvent = { id: string; type: EventType; candidateId: string; interviewId: string; txId: bigint; seq: bigint; createdAt: Date };

/**
 * An event row as raw SQL reads it (`e.tx_id::text as tx, e.seq::text as seq`: bigints travel as text; `e.created_at` as drizzle's text);
 * `status_to` (a status change's `change.to`) where a webhook's conditions are checked on it (fan-out.ts).
 */
export type HistoryEventRow = {
  id: string;
  type: EventType;
  candidate_id: string;
  interview_id: string;
  tx: string;
  seq: string;
  created_at: string | Date;
  status_to?: string | null;
};

export const historyEventOf = (row: HistoryEventRow): HistoryEvent => ({
  id: row.id,
  type: row.type,
  candidateId: row.candidate_id,
  interviewId: row.interview_id,
  txId: BigInt(row.tx),
  seq: BigInt(row.seq),
  createdAt: new Date(row.created_at),
});

type WebhookScope = Pick<typeof webhooks.$inferSelect, "id" | "companyId" | "eventTypes" | "allInterviews" | "interviewIds">;

/** Whether a webhook is sent an event: one of its event types, from an interview it covers. */
export const webhookTakes = (webhook: WebhookScope, event: HistoryEvent) =>
  webhook.eventTypes.includes(event.type) && (webhook.allInterviews || webhook.interviewIds.includes(event.interviewId));

/** The message that brings an event of the history to a webhook (fan-out, sending past events, the demo's history). */
export const eventMessage = (newId: IdGenerator, webhook: WebhookScope, event: HistoryEvent): NewMessage => ({
  id: newId("message"),
  companyId: webhook.companyId,
  webhookId: webhook.id,
  origin: "event",
  eventId: event.id,
  eventType: event.type,
  candidateId: event.candidateId,
  eventTxId: event.txId,
  eventSeq: event.seq,
  historyAt: event.createdAt,
});

type Chain = { webhookId: string; candidateId?: string | null };
export type LinkedChain = { webhookId: string; candidateId: string };

const batchSize = 1000;

/** Inserts the messages, due at `now`, and makes each chain's head ready; returns the ids inserted. */
export async function enqueueMessages(tx: Executor, messages: NewMessage[], now: Date): Promise<string[]> {
  if (messages.length === 0) return [];
  const chains = distinctChains(messages);
  if (chains.length > 0) {
    await tx
      .select({ id: webhookMessages.id })
      .from(webhookMessages)
      .where(
        and(
          eq(webhookMessages.status, "pending"),
          inArray(webhookMessages.webhookId, [...new Set(chains.map((chain) => chain.webhookId))]),
          inArray(webhookMessages.candidateId, [...new Set(chains.map((chain) => chain.candidateId))]),
        ),
      )
      .orderBy(asc(webhookMessages.id))
      .for("update");
  }
  const inserted: string[] = [];
  for (let offset = 0; offset < messages.length; offset += batchSize) {
    const rows = await tx
      .insert(webhookMessages)
      .values(
        messages
          .slice(offset, offset + batchSize)
          .map((message) => ({ ...message, held: Boolean(message.candidateId), nextAttemptAt: now, createdAt: now, historyAt: message.historyAt ?? now })),
      )
      .onConflictDoNothing({
        target: [webhookMessages.webhookId, webhookMessages.eventId, webhookMessages.historyAt],
        where: sql`${webhookMessages.origin} = 'event'`,
      })
      .returning({ id: webhookMessages.id });
    inserted.push(...rows.map((row) => row.id));
  }
  if (inserted.length === 0) return inserted;
  await readyChainHeads(tx, chains);
  await announceReady(tx);
  return inserted;
}

/**
 * Makes the first pending message of each chain (in the history's order)
 * ready and holds the rest. Run under the chains' lock when messages enter
 * (above), and in a fresh statement after a chain's head finishes (deliver.ts),
 * so it sees any message committed while the head was being recorded.
 */
export async function readyChainHeads(tx: Executor, chains: Chain[]): Promise<void> {
  const linked = distinctChains(chains);
  if (linked.length > 0) await executePrepared(tx, readyChainHeadsStatement(linked));
}

/** Each chain's pending messages through the chain index, ranked; only rows whose state changes are written (exported for the query-plan tests). */
export function readyChainHeadsStatement(linked: LinkedChain[]) {
  return sql`
    update webhook_messages m set held = r.place > 1
    from (
      select p.id, p.history_at, row_number() over (partition by p.webhook_id, p.candidate_id order by p.event_tx_id, p.event_seq, p.seq) as place
      from unnest(${sql.param(linked.map((chain) => chain.webhookId))}::text[], ${sql.param(linked.map((chain) => chain.candidateId))}::text[]) as c(webhook_id, candidate_id)
      join lateral (
        select id, history_at, webhook_id, candidate_id, event_tx_id, event_seq, seq from webhook_messages p
        where p.webhook_id = c.webhook_id and p.candidate_id = c.candidate_id and p.status = 'pending'
      ) p on true
    ) r
    where m.id = r.id and m.history_at = r.history_at and m.held <> (r.place > 1)`;
}

function distinctChains(messages: Chain[]): LinkedChain[] {
  const seen = new Map<string, LinkedChain>();
  for (const { webhookId, candidateId } of messages) if (candidateId) seen.set(`${webhookId}/${candidateId}`, { webhookId, candidateId });
  return [...seen.values()];
}
