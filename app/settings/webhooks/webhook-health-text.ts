/** What a webhook's health state means, in one sentence, for the list and the webhook's page (members see it too). */
import { formatDateTime } from "@/app/ui/format";
import { disableAfterMs } from "@/server/webhooks/delivery/failure-thresholds";
import type { WebhookView } from "@/server/webhooks/views/webhook-view.types";

type Health = Pick<WebhookView, "state" | "disabledReason" | "failingSince" | "lastSuccessAt" | "lastFailureAt">;

export function healthSentence(webhook: Health): string {
  switch (webhook.state) {
    case "off":
      return webhook.disabledReason ? `This webhook is off. ${webhook.disabledReason}.` : "This webhook is off.";
    case "no_deliveries":
      return webhook.lastFailureAt ? "No message has been delivered since it was turned on again." : "No message has been delivered yet.";
    case "healthy":
      return `The latest delivery succeeded (${formatDateTime(webhook.lastSuccessAt)}).`;
    case "retrying":
      return `Retrying since ${formatDateTime(webhook.failingSince)}: the latest tries failed and are being retried; no message has failed for good.`;
    case "failing": {
      const turnsOffAt = new Date(new Date(webhook.failingSince!).getTime() + disableAfterMs).toISOString();
      return `Failing since ${formatDateTime(webhook.failingSince)}. Unless a delivery succeeds, it is turned off at ${formatDateTime(turnsOffAt)}.`;
    }
  }
}
