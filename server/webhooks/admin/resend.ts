/** Sending logged messages again, one or every failed one since a time, as new log entries. */
import { and, asc, desc, eq, gte, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { events, webhookMessages } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { invalidState, notFound } from "@/server/domain/errors";
import { enqueueMessages } from "../delivery/queue";
import { findWebhookThatIsOn } from "./find-webhook";

export const maxResendBatch = 1000;

/**
 * New log entries for the same events: current data, current address, tries from 1; each points at the message it
 * resends. Each event is read from the history once, here (the queue keeps it for the claim): an event no longer kept
 * leaves its copy with nothing to send, which the claim ends as gone.
 */
async function enqueueCopies(ctx: DomainContext, tx: Executor, companyId: string, sources: Array<typeof webhookMessages.$inferSelect>, now: Date) {
  const eventIds = sources.filter((source) => source.origin !== "sample").map((source) => source.eventId);
  const kept = eventIds.length
    ? await tx
        .select({ id: events.id, createdAt: events.createdAt, change: events.change })
        .from(events)
        .where(and(eq(events.companyId, companyId), inArray(events.id, eventIds)))
    : [];
  const eventOf = new Map(kept.map((event) => [event.id, { createdAt: event.createdAt, change: event.change }]));
  return enqueueMessages(
    tx,
    sources.map((source) => ({
      id: ctx.newId("message"),
      companyId,
      webhookId: source.webhookId,
      origin: source.origin === "sample" ? ("sample" as const) : ("resend" as const),
      eventId: source.eventId,
      eventType: source.eventType,
      candidateId: source.candidateId,
      eventTxId: source.eventTxId,
      eventSeq: source.eventSeq,
      isTest: source.isTest,
      sampleBody: source.sampleBody,
      resentFrom: source.id,
      event: eventOf.get(source.eventId) ?? null,
    })),
    now,
  );
}

/**
 * Sends a message again as a new log entry: same event id, the candidate's
 * current data, the webhook's current address, tries counted from 1.
 */
export async function resendMessage(ctx: DomainContext, companyId: string, messageId: string) {
  return ctx.db.transaction(async (tx) => {
    const [source] = await tx
      .select()
      .from(webhookMessages)
      .where(and(eq(webhookMessages.id, messageId), eq(webhookMessages.companyId, companyId)));
    if (!source) throw notFound("message", messageId);
    await findWebhookThatIsOn(tx, companyId, source.webhookId, "resending");
    const {
      ids: [id],
    } = await enqueueCopies(ctx, tx, companyId, [source], ctx.clock.now());
    // Nothing queued: the webhook was turned off (or deleted) after it was read above.
    if (!id) throw invalidState("Turn the webhook on before resending.");
    return { id };
  });
}

/**
 * The latest message of each event to the webhook since `since`; the events
 * whose latest one failed are what "resend every failed message" resends (a
 * resent one that is waiting or succeeded takes its event out, so repeated
 * calls make progress). Every day of the log is read, through the log's
 * index from `since` on: a message created since then may be kept in any
 * older day (its event's).
 */
function latestPerEvent(db: Executor, webhookId: string, since: Date) {
  return db
    .selectDistinctOn([webhookMessages.eventId])
    .from(webhookMessages)
    .where(and(eq(webhookMessages.webhookId, webhookId), gte(webhookMessages.createdAt, since)))
    .orderBy(asc(webhookMessages.eventId), desc(webhookMessages.seq))
    .as("latest");
}

/** How many messages `resendFailedSince` would resend now (at most 1,000), of how many failed. */
export async function countFailedSince(ctx: DomainContext, companyId: string, webhookId: string, since: Date) {
  await findWebhookThatIsOn(ctx.db, companyId, webhookId, "resending");
  const [{ failed }] = (await failedSinceCount(ctx.db, webhookId, since)) as [{ failed: number }];
  return { failed, resendNow: Math.min(failed, maxResendBatch) };
}

/** How many events since `since` have a failed latest message: what `resendFailedSince` takes, 1,000 at a time. */
export function failedSinceCount(db: Executor, webhookId: string, since: Date) {
  const latest = latestPerEvent(db, webhookId, since);
  return db.select({ failed: sql<number>`count(*)::int` }).from(latest).where(eq(latest.status, "failed"));
}

/** Resends every failed message since `since`, oldest first, one per event, at most 1,000 at a time. */
export async function resendFailedSince(ctx: DomainContext, companyId: string, webhookId: string, since: Date) {
  return ctx.db.transaction(async (tx) => {
    await findWebhookThatIsOn(tx, companyId, webhookId, "resending");
    const latest = latestPerEvent(tx, webhookId, since);
    const failed = await tx
      .select()
      .from(latest)
      .where(eq(latest.status, "failed"))
      .orderBy(asc(latest.seq))
      .limit(maxResendBatch + 1);
    const batch = failed.slice(0, maxResendBatch);
    await enqueueCopies(ctx, tx, companyId, batch, ctx.clock.now());
    return { resent: batch.length, more: failed.length > maxResendBatch };
  });
}
