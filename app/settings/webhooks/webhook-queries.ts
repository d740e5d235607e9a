/** React Query keys of the webhook pages, what to refresh after a change, and the note a save leaves for the next page. */
import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";

export const webhookQueries = {
  list: ["webhooks"],
  one: (webhookId: string) => ["webhook", webhookId],
  chart: (webhookId: string) => ["chart", webhookId],
  messages: (webhookId: string) => ["messages", webhookId],
  message: (messageId: string) => ["message", messageId],
  backfillCount: (webhookId: string, since?: string) => (since === undefined ? ["backfill-count", webhookId] : ["backfill-count", webhookId, since]),
  savedWarning: (webhookId: string) => ["saved-warning", webhookId],
  savedHeaders: (webhookId: string) => ["saved-headers", webhookId],
  listNotice: ["webhooks-notice"],
};

/**
 * The warning a save returned (an address that does not resolve yet), handed
 * from the form to the webhook's page it goes to next, like a flash message:
 * kept in this tab's query cache, never fetched, gone once dismissed or the
 * page is loaded afresh.
 */
export function leaveSavedWarning(queryClient: QueryClient, webhookId: string, warning: string | null) {
  queryClient.setQueryData(webhookQueries.savedWarning(webhookId), warning);
}

export function useSavedWarning(webhookId: string) {
  const queryClient = useQueryClient();
  const warning = useQuery<string | null>({ queryKey: webhookQueries.savedWarning(webhookId), queryFn: () => null, enabled: false }).data ?? null;
  return { warning, dismiss: () => leaveSavedWarning(queryClient, webhookId, null) };
}

export type SavedHeaders = Array<{ name: string; value: string }>;

/** The custom headers a save returned, with their values: shown once on the webhook's page, kept like the saved warning (this tab only, never fetched). */
export function leaveSavedHeaders(queryClient: QueryClient, webhookId: string, headers: SavedHeaders | null) {
  queryClient.setQueryData(webhookQueries.savedHeaders(webhookId), headers);
}

export function useSavedHeaders(webhookId: string) {
  const queryClient = useQueryClient();
  const headers = useQuery<SavedHeaders | null>({ queryKey: webhookQueries.savedHeaders(webhookId), queryFn: () => null, enabled: false }).data ?? null;
  return { headers, dismiss: () => leaveSavedHeaders(queryClient, webhookId, null) };
}

/** What the webhook list confirms when a page sends the admin back to it (a deleted webhook); kept like the saved warning. */
export function leaveListNotice(queryClient: QueryClient, notice: string | null) {
  queryClient.setQueryData(webhookQueries.listNotice, notice);
}

export function useListNotice() {
  const queryClient = useQueryClient();
  const notice = useQuery<string | null>({ queryKey: webhookQueries.listNotice, queryFn: () => null, enabled: false }).data ?? null;
  return { notice, dismiss: () => leaveListNotice(queryClient, null) };
}

/** A delivery, a resend or turning a webhook off changes its health, chart and log together. */
export function refreshWebhookViews(queryClient: QueryClient, webhookId: string) {
  return Promise.all(
    [webhookQueries.list, webhookQueries.one(webhookId), webhookQueries.chart(webhookId), webhookQueries.messages(webhookId)].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
