/** React Query keys of the webhook pages, and what to refresh after a change. */
import type { QueryClient } from "@tanstack/react-query";

export const webhookQueries = {
  list: ["webhooks"],
  one: (webhookId: string) => ["webhook", webhookId],
  chart: (webhookId: string) => ["chart", webhookId],
  messages: (webhookId: string) => ["messages", webhookId],
  message: (messageId: string) => ["message", messageId],
};

/** A delivery, a resend or turning a webhook off changes its health, chart and log together. */
export function refreshWebhookViews(queryClient: QueryClient, webhookId: string) {
  return Promise.all(
    [webhookQueries.list, webhookQueries.one(webhookId), webhookQueries.chart(webhookId), webhookQueries.messages(webhookId)].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
