/** Turning a webhook on or off. */
import { eq } from "drizzle-orm";
import { retryOnDeadlock } from "@/db/deadlocks";
import { webhooks } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { endWebhookQueue } from "../delivery/queue";
import { findWebhook } from "./find-webhook";

/** Turning off marks the waiting messages failed (they can be resent later) and returns how many (queue.ts `endWebhookQueue` says how it meets a message being queued). */
export async function setWebhookEnabled(ctx: DomainContext, companyId: string, webhookId: string, enabled: boolean, by = "an admin") {
  return retryOnDeadlock(() =>
    ctx.db.transaction(async (tx) => {
      await findWebhook(tx, companyId, webhookId);
      const now = ctx.clock.now();
      await tx
        .update(webhooks)
        .set(
          enabled
            ? { enabled: true, disabledAt: null, disabledReason: null, failingSince: null, failureAlertedAt: null, updatedAt: now }
            : { enabled: false, disabledAt: now, disabledReason: `Turned off by ${by}`, updatedAt: now },
        )
        .where(eq(webhooks.id, webhookId));
      return { markedFailed: enabled ? 0 : await endWebhookQueue(tx, webhookId, now) };
    }),
  );
}
