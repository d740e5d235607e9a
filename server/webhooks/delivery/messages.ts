/**
 * What a message is made of: an event of the history to a webhook that takes
 * it. How messages are queued and sent is the engine's (queue.ts, and
 * docs/webhook-engine.md).
 */
import type { EventType, StatusChange, webhookMessages, webhooks } from "@/db/schema";
import type { IdGenerator } from "@/server/ids";

/**
 * A message to add; without `historyAt` (a resend, a sample) it counts from its own creation. `event`: its event's time
 * and change, as the queue keeps them for the claim (db/schema/webhook-queue.ts); null for a sample, or for a resend
 * whose event is no longer kept.
 */
export type NewMessage = Omit<typeof webhookMessages.$inferInsert, "nextAttemptAt" | "createdAt" | "status" | "attemptCount" | "seq"> & {
  event: { createdAt: Date; change: StatusChange | null } | null;
};

/** An event of the history as the log needs it: what it is, whose chain it joins, and its place in the history's order. */
export type HistoryEvent = {
  id: string;
  type: EventType;
  candidateId: string;
  interviewId: string;
  txId: bigint;
  seq: bigint;
  createdAt: Date;
  change: StatusChange | null;
};

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
  change: StatusChange | null;
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
  change: row.change,
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
  event: { createdAt: event.createdAt, change: event.change },
});
