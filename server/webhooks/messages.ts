/**
 * The one way a message enters the log: inserted ready to go, with a delivery
 * job for each that heads its (webhook, candidate) chain, that is, none of
 * the chain's waiting messages comes before it in the history's order
 * (transaction, then sequence). The rest are
 * released one by one as each predecessor finishes (deliver.ts).
 *
 * The chains' waiting messages are locked before deciding which new message
 * heads its chain, so a predecessor finishing at this moment either is seen
 * finished here, or waits for this commit and then sees, and releases, the
 * new message. Samples belong to no chain and always get a job. An event's
 * second message to the same webhook is skipped (a unique index).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { webhookMessages } from "@/db/schema";
import { scheduleDelivery } from "@/server/jobs/queue";

export type NewMessage = Omit<typeof webhookMessages.$inferInsert, "nextAttemptAt" | "createdAt" | "status" | "attemptCount">;

const batchSize = 1000;

/** An event's place in the history: its transaction, then its sequence number. */
type HistoryPlace = { tx: bigint; seq: bigint };
const placeOf = (message: { eventTxId: bigint | null; eventSeq: bigint | null }): HistoryPlace => ({
  tx: message.eventTxId ?? 0n,
  seq: message.eventSeq ?? 0n,
});
const isBefore = (a: HistoryPlace, b: HistoryPlace) => a.tx < b.tx || (a.tx === b.tx && a.seq < b.seq);

/** Inserts the messages, due at `now`, and schedules the chain heads; returns the ids inserted. */
export async function enqueueMessages(tx: Executor, messages: NewMessage[], now: Date): Promise<string[]> {
  if (messages.length === 0) return [];
  const chainOf = (message: { webhookId: string; candidateId?: string | null }) => (message.candidateId ? `${message.webhookId}/${message.candidateId}` : null);
  const chained = messages.filter((message) => message.candidateId);
  const waiting =
    chained.length === 0
      ? []
      : await tx
          .select({
            webhookId: webhookMessages.webhookId,
            candidateId: webhookMessages.candidateId,
            eventTxId: webhookMessages.eventTxId,
            eventSeq: webhookMessages.eventSeq,
          })
          .from(webhookMessages)
          .where(
            and(
              eq(webhookMessages.status, "pending"),
              inArray(webhookMessages.webhookId, [...new Set(chained.map((message) => message.webhookId))]),
              inArray(webhookMessages.candidateId, [...new Set(chained.map((message) => message.candidateId!))]),
            ),
          )
          .orderBy(asc(webhookMessages.id))
          .for("update");
  // Per chain, the earliest place in the history a waiting (or just scheduled) message is for.
  const firstWaiting = new Map<string, HistoryPlace>();
  const wait = (chain: string, place: HistoryPlace) => {
    const first = firstWaiting.get(chain);
    if (!first || isBefore(place, first)) firstWaiting.set(chain, place);
  };
  for (const message of waiting) wait(chainOf(message)!, placeOf(message));
  const inserted: string[] = [];
  for (let offset = 0; offset < messages.length; offset += batchSize) {
    const rows = await tx
      .insert(webhookMessages)
      .values(messages.slice(offset, offset + batchSize).map((message) => ({ ...message, nextAttemptAt: now, createdAt: now })))
      .onConflictDoNothing({ target: [webhookMessages.webhookId, webhookMessages.eventId], where: sql`${webhookMessages.origin} = 'event'` })
      .returning({
        id: webhookMessages.id,
        webhookId: webhookMessages.webhookId,
        candidateId: webhookMessages.candidateId,
        eventTxId: webhookMessages.eventTxId,
        eventSeq: webhookMessages.eventSeq,
      });
    for (const message of rows) {
      inserted.push(message.id);
      const chain = chainOf(message);
      const first = chain ? firstWaiting.get(chain) : undefined;
      if (first && !isBefore(placeOf(message), first)) continue;
      if (chain) wait(chain, placeOf(message));
      await scheduleDelivery(tx, message.id, now);
    }
  }
  return inserted;
}
