/**
 * One attempt of one message, run by the `deliver-webhook-message` task.
 *
 * 1. Only the oldest waiting message of its (webhook, candidate) chain is
 *    attempted; a later one is held back until it succeeds or fails for good.
 * 2. The message is leased (`attempt_started_at`) in its own short
 *    transaction: no transaction stays open during the HTTP request. A lease
 *    that runs out (its worker died) is taken over by the next attempt.
 * 3. A message whose event no longer exists ends on our side: no request, no
 *    attempt row, nothing counted against the webhook; the log says why.
 * 4. The outcome is recorded with the attempt in one transaction, which also
 *    schedules the retry (our own schedule) or releases the chain's next one,
 *    and queues any email the failure policy sends.
 */
import { and, asc, eq, isNull, lte, or } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { retryOnDeadlock } from "@/db/deadlocks";
import { webhookAttempts, webhookMessages, webhooks } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { env } from "@/server/env";
import { scheduleDelivery } from "@/server/jobs/queue";
import { answerDeadlineMs, type DeliveryResult } from "./delivery-client";
import type { DeliveryDeps } from "./deps";
import { recordDeliveryOutcome } from "./failure-policy";
import { renderBody } from "./payload";
import { maxAttempts, retryDelayAfter } from "./retry-schedule";
import { decryptSecret } from "./secrets";
import { signatureHeader } from "./signature";
import { eventGoneReason, webhookOffReason } from "./unsent-reasons";

/** An attempt older than this without an outcome was interrupted (a killed worker). */
export const leaseMs = () => env.WEBHOOK_ATTEMPT_LEASE_SECONDS * 1000;

export type DeliveryOutcome = "succeeded" | "retry_scheduled" | "failed" | "ended" | "held" | "not_due" | "busy" | "gone";

export async function deliverMessage(deps: DeliveryDeps, messageId: string): Promise<DeliveryOutcome> {
  const { ctx } = deps;
  const now = ctx.clock.now();
  const [found] = await ctx.db
    .select({ message: webhookMessages, webhook: webhooks })
    .from(webhookMessages)
    .innerJoin(webhooks, eq(webhooks.id, webhookMessages.webhookId))
    .where(eq(webhookMessages.id, messageId));
  if (found?.message.status !== "pending") return "gone";
  const { message, webhook } = found;
  // Created while the webhook was being turned off (fan-out read it enabled).
  if (!webhook.enabled) return endUnsent(ctx, message, message.attemptStartedAt, webhookOffReason);
  if (message.candidateId) {
    const head = await chainHead(ctx.db, message);
    if (head && head.id !== message.id) {
      // Held back: make sure the message in front is on its way.
      await scheduleDelivery(ctx.db, head.id, new Date(Math.max(head.nextAttemptAt.getTime(), now.getTime())));
      return "held";
    }
  }
  if (message.nextAttemptAt > now) {
    await scheduleDelivery(ctx.db, message.id, message.nextAttemptAt);
    return "not_due";
  }

  const leased = await ctx.db
    .update(webhookMessages)
    .set({ attemptStartedAt: now })
    .where(
      and(
        eq(webhookMessages.id, message.id),
        eq(webhookMessages.status, "pending"),
        or(isNull(webhookMessages.attemptStartedAt), lte(webhookMessages.attemptStartedAt, new Date(now.getTime() - leaseMs()))),
      ),
    )
    .returning({ id: webhookMessages.id });
  if (leased.length === 0) {
    // Another attempt holds the lease. Should its worker have died, look again
    // the moment the lease runs out rather than at the next maintenance run.
    await scheduleDelivery(ctx.db, message.id, new Date((message.attemptStartedAt ?? now).getTime() + leaseMs()));
    return "busy";
  }

  const body = await renderBody(deps.sql, message);
  if (body === null) return endUnsent(ctx, message, now, eventGoneReason);
  // A stalled worker must not send after its lease has passed to another attempt.
  if (now.getTime() + leaseMs() - ctx.clock.now().getTime() < answerDeadlineMs) return "busy";
  const attempt = message.attemptCount + 1;
  const headers = requestHeaders(message, attempt, body, signingSecrets(webhook, now), Math.floor(now.getTime() / 1000));
  const result = await deps.client.post(webhook.url, body, headers);
  return record(deps, { message, webhookUrl: webhook.url, attempt, startedAt: now, headers, result });
}

/** Our side cannot make the message: it fails with the reason, and the chain goes on. */
async function endUnsent(ctx: DomainContext, message: typeof webhookMessages.$inferSelect, leasedAt: Date | null, reason: string): Promise<DeliveryOutcome> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const ended = await tx
      .update(webhookMessages)
      .set({ status: "failed", attemptStartedAt: null, completedAt: now, failureReason: reason })
      .where(
        and(
          eq(webhookMessages.id, message.id),
          eq(webhookMessages.status, "pending"),
          leasedAt ? eq(webhookMessages.attemptStartedAt, leasedAt) : isNull(webhookMessages.attemptStartedAt),
        ),
      )
      .returning({ id: webhookMessages.id });
    if (ended.length === 0) return "gone";
    await releaseNextInChain(tx, message, now);
    return "ended";
  });
}

/** The current secret, and the previous one during the 24 hours after a replacement. */
function signingSecrets(webhook: typeof webhooks.$inferSelect, now: Date) {
  const secrets = [decryptSecret(webhook.secretCiphertext)];
  if (webhook.previousSecretCiphertext && webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt > now) {
    secrets.push(decryptSecret(webhook.previousSecretCiphertext));
  }
  return secrets;
}

export const userAgent = () => `InterviewAPI-Webhooks/1.0 (+${env.APP_URL})`;

function requestHeaders(message: typeof webhookMessages.$inferSelect, attempt: number, body: string, secrets: string[], timestamp: number) {
  return {
    "Content-Type": "application/json",
    "User-Agent": userAgent(),
    "Service-Event-Id": message.eventId,
    "Service-Event-Type": message.eventType,
    "Service-Delivery-Attempt": String(attempt),
    "Service-Signature": signatureHeader(body, secrets, timestamp),
  };
}

type Recorded = {
  message: typeof webhookMessages.$inferSelect;
  webhookUrl: string;
  attempt: number;
  startedAt: Date;
  headers: Record<string, string>;
  result: DeliveryResult;
};

async function record({ ctx }: DeliveryDeps, { message, webhookUrl, attempt, startedAt, headers, result }: Recorded): Promise<DeliveryOutcome> {
  const now = ctx.clock.now();
  const delay = result.succeeded ? null : retryDelayAfter(attempt);
  const outcome: DeliveryOutcome = result.succeeded ? "succeeded" : delay !== null && attempt < maxAttempts ? "retry_scheduled" : "failed";
  return retryOnDeadlock(() =>
    ctx.db.transaction(async (tx) => {
      await tx.insert(webhookAttempts).values({
        id: ctx.newId("attempt"),
        messageId: message.id,
        webhookId: message.webhookId,
        attempt,
        url: webhookUrl,
        startedAt,
        durationMs: result.durationMs,
        requestHeaders: headers,
        responseStatus: result.status,
        responseHeaders: result.headers,
        responseBody: result.bodyExcerpt,
        succeeded: result.succeeded,
        errorClass: result.errorClass,
        errorMessage: result.errorMessage,
        createdAt: now,
      });
      const nextAttemptAt = outcome === "retry_scheduled" ? new Date(now.getTime() + delay!) : message.nextAttemptAt;
      // Only while this attempt still holds the message: a webhook turned off
      // meanwhile has failed it, and that must stand.
      const updated = await tx
        .update(webhookMessages)
        .set({
          attemptCount: attempt,
          attemptStartedAt: null,
          status: outcome === "retry_scheduled" ? "pending" : outcome,
          nextAttemptAt,
          completedAt: outcome === "retry_scheduled" ? null : now,
        })
        .where(and(eq(webhookMessages.id, message.id), eq(webhookMessages.status, "pending"), eq(webhookMessages.attemptStartedAt, startedAt)))
        .returning({ id: webhookMessages.id });
      if (updated.length === 0) return "gone";
      if (outcome === "retry_scheduled") await scheduleDelivery(tx, message.id, nextAttemptAt);
      else await releaseNextInChain(tx, message, now);
      await recordDeliveryOutcome(tx, ctx, message.webhookId, result, now);
      return outcome;
    }),
  );
}

/** The first waiting message of the message's chain, in the order of its events. */
async function chainHead(db: Executor, message: { webhookId: string; candidateId: string | null }) {
  const [head] = await db
    .select({ id: webhookMessages.id, nextAttemptAt: webhookMessages.nextAttemptAt })
    .from(webhookMessages)
    .where(and(eq(webhookMessages.webhookId, message.webhookId), eq(webhookMessages.candidateId, message.candidateId!), eq(webhookMessages.status, "pending")))
    .orderBy(asc(webhookMessages.eventTxId), asc(webhookMessages.eventSeq), asc(webhookMessages.seq))
    .limit(1);
  return head ?? null;
}

/** When a message is done, the next waiting one about the same candidate goes at once. */
export async function releaseNextInChain(tx: Executor, message: { webhookId: string; candidateId: string | null }, now: Date) {
  if (!message.candidateId) return;
  const next = await chainHead(tx, message);
  if (next) await scheduleDelivery(tx, next.id, new Date(Math.max(next.nextAttemptAt.getTime(), now.getTime())));
}
