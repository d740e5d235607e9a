/**
 * What a run of failures does to a webhook (spec 6.2): after a day without a
 * success the company's admins are emailed once; after 3 days the webhook is
 * turned off, its waiting messages fail, and the admins are emailed again
 * (the times are in failure-thresholds.ts).
 * A success ends the run. A run's start and end are recorded with each batch
 * of attempts (deliver.ts), which applies this policy when a threshold is
 * reached; the periodic maintenance applies it too, so a webhook that stops
 * getting attempts is still turned off.
 * Each email is queued in the transaction that changes the webhook's state,
 * so the email cannot be lost once the state has changed.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { webhookChainMessages, webhookMessages, webhookReadyMessages, webhooks, webhookWaitingRetries } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { env } from "@/server/env";
import { type AdminEmail, queueAdminEmail } from "@/server/notifications/email";
import { alertAfter, alertAfterMs, disableAfter, disableAfterMs } from "./failure-thresholds";
import { waitingMessagesOf } from "./messages";
import { webhookOffReason } from "./unsent-reasons";

type PolicyContext = Pick<DomainContext, "newId" | "clock">;

export async function applyFailurePolicy(tx: Executor, ctx: PolicyContext, webhook: typeof webhooks.$inferSelect, now: Date) {
  if (!webhook.enabled || !webhook.failingSince) return;
  const failingFor = now.getTime() - webhook.failingSince.getTime();
  const since = webhook.failingSince.toISOString();
  const settings = `${env.APP_URL}/settings/webhooks/${webhook.id}`;
  const emailAdmins = (email: Omit<AdminEmail, "companyId">) => queueAdminEmail(tx, ctx, { companyId: webhook.companyId, ...email });
  // Each change applies only if the webhook is still in the state it was read
  // in: a success or another run may have got there first.
  const unchanged = and(eq(webhooks.id, webhook.id), eq(webhooks.enabled, true), eq(webhooks.failingSince, webhook.failingSince));
  if (failingFor >= disableAfterMs) {
    const disabled = await tx
      .update(webhooks)
      .set({ enabled: false, disabledAt: now, disabledReason: `No successful delivery for ${disableAfter}`, updatedAt: now })
      .where(unchanged)
      .returning({ id: webhooks.id });
    if (disabled.length === 0) return;
    await failWaitingMessages(tx, webhook.id, now);
    await emailAdmins({
      kind: "webhook_disabled",
      subject: `A webhook was turned off after ${disableAfter} of failed deliveries`,
      body: `No message to ${webhook.url} has been delivered since ${since}, so the webhook was turned off and its waiting messages were marked failed.\n\nFix the receiver, turn the webhook on again, and resend what it missed from the delivery log (or read it from GET /v1/events): ${settings}`,
    });
    return;
  }
  if (failingFor >= alertAfterMs && !webhook.failureAlertedAt) {
    const alerted = await tx
      .update(webhooks)
      .set({ failureAlertedAt: now })
      .where(and(unchanged, isNull(webhooks.failureAlertedAt)))
      .returning({ id: webhooks.id });
    if (alerted.length === 0) return;
    await emailAdmins({
      kind: "webhook_failing",
      subject: `A webhook has been failing for ${alertAfter}`,
      body: `Messages to ${webhook.url} have failed since ${since}. Deliveries are retried; after ${disableAfter} without a success the webhook will be turned off.\n\nSee the delivery log: ${settings}`,
    });
  }
}

/**
 * Marks the webhook's waiting messages failed (they can be resent later), found
 * by their keys (webhook-waiting-message-keys.ts), and
 * takes them out of the ready set, the waiting retries and their chains' rows, leased ones too:
 * their outcome, when it comes, finds no lease and changes nothing. One
 * statement, so it removes the rows of exactly the messages it failed: a
 * message a fan-out commits meanwhile keeps its ready row and ends unsent,
 * "webhook off", when it is claimed (deliver.ts), instead of being left
 * pending with no ready row. Returns how many.
 */
export async function failWaitingMessages(tx: Executor, webhookId: string, now: Date): Promise<number> {
  const [row] = await tx.execute<{ failed: number }>(failWaitingMessagesStatement(webhookId, now));
  return row!.failed;
}

/** The statement of `failWaitingMessages` (exported for the query-plan tests). */
export function failWaitingMessagesStatement(webhookId: string, now: Date) {
  return sql`
    with failed as (
      update ${webhookMessages} m set status = 'failed', completed_at = ${now.toISOString()}::timestamptz, failure_reason = ${webhookOffReason}
      from ${waitingMessagesOf(webhookId)} k
      where m.id = k.message_id and m.history_at = k.history_at and m.status = 'pending'
      returning m.id
    ), unready as (
      delete from ${webhookReadyMessages} where message_id in (select id from failed)
    ), unwaiting as (
      delete from ${webhookWaitingRetries} where message_id in (select id from failed)
    ), unchained as (
      delete from ${webhookChainMessages} where message_id in (select id from failed)
    )
    select count(*)::int as failed from failed`;
}
