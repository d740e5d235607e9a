/**
 * What the dispatcher tells operators about each message it handled, once its
 * outcome is recorded: the delivery metrics, and a debug log line carrying the
 * event and message ids (as does every line logged while it is sent).
 */
import { log, withLogFields } from "@/server/log";
import { metrics } from "@/server/observability/metrics";
import type { Attempted } from "./attempt";
import type { ClaimedMessage } from "./claim";
import type { DeliveryOutcome } from "./record";

export const deliveryLogFields = (message: ClaimedMessage) => ({ eventId: message.eventId, messageId: message.id, webhookId: message.webhookId });

export function reportDeliveries(batch: readonly Attempted[], outcomes: ReadonlyMap<string, DeliveryOutcome>) {
  const { webhookDeliveries, webhookDeliveryDuration } = metrics();
  for (const attempted of batch) {
    // recordOutcomes answers for every message of the batch.
    const outcome = outcomes.get(attempted.message.id) ?? "gone";
    const sent = attempted.kind === "sent" ? attempted : null;
    webhookDeliveries.inc({ outcome, error_class: sent?.result.errorClass ?? "none" });
    if (sent) webhookDeliveryDuration.observe({ outcome }, sent.result.durationMs / 1000);
    withLogFields(deliveryLogFields(attempted.message), () =>
      log.debug("webhook delivery", {
        outcome,
        attempt: sent?.attempt,
        status: sent?.result.status,
        errorClass: sent?.result.errorClass ?? undefined,
        durationMs: sent?.result.durationMs,
        reason: attempted.kind === "ended" || attempted.kind === "unbuildable" ? attempted.reason : undefined,
      }),
    );
  }
}
