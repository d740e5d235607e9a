/**
 * What a run of failures does to a webhook (spec 6.2): after a day without a
 * success the company's admins are emailed once; after 3 days the webhook is
 * turned off, its waiting messages fail, and the admins are emailed again
 * (the times are in failure-thresholds.ts).
 * A success ends the run. A run's start and end are recorded with each batch
 * of attempts (record.ts), which applies this policy when a threshold is
 * reached; the periodic maintenance applies it too, so a webhook that stops
 * getting attempts is still turned off.
 * Each email is queued in the transaction that changes the webhook's state,
 * so the email cannot be lost once the state has changed.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { webhooks } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { env } from "@/server/env";
import { type AdminEmail, queueAdminEmail } from "@/server/notifications/email";
import { alertAfter, alertAfterMs, disableAfter, disableAfterMs } from "./failure-thresholds";
import { endWebhookQueue } from "./queue";

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
    await endWebhookQueue(tx, webhook.id, now);
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
