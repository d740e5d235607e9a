/** React Query keys of the webhook pages, and what to refresh after a change. */
import type { QueryClient } from "@tanstack/react-query";

export const webhookQueries = {
  list: ["webhooks"],
  one: (webhookId: string) => ["webhook", webhookId],
  chart: (webhookId: string) => ["chart", webhookId],
  messages: (webhookId: string) => ["messages", webhookId],
  message: (messageId: string) => ["message", messageId],
  backfillCount: (webhookId: string, since: string) => ["backfill-count", webhookId, since],
  /** The address warning from the last save, kept for the webhook's page the form goes to next. */
  addressWarning: (webhookId: string) => ["address-warning", webhookId],
};

/** A delivery, a resend or turning a webhook off changes its health, chart and log together. */
export function refreshWebhookViews(queryClient: QueryClient, webhookId: string) {
  return Promise.all(
    [webhookQueries.list, webhookQueries.one(webhookId), webhookQueries.chart(webhookId), webhookQueries.messages(webhookId)].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
