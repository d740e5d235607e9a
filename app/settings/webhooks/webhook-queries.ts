/** What to refresh after a change to a webhook and how often to follow what was just sent, and the notes a page leaves for the next one. */
import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useSettingsApi } from "../settings-api";

/** Cache keys of what the pages keep in the query cache but never fetch; every fetched query's key comes from its procedure. */
const notes = {
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
  queryClient.setQueryData(notes.savedWarning(webhookId), warning);
}

export function useSavedWarning(webhookId: string) {
  const queryClient = useQueryClient();
  const warning = useQuery<string | null>({ queryKey: notes.savedWarning(webhookId), queryFn: () => null, enabled: false }).data ?? null;
  return { warning, dismiss: () => leaveSavedWarning(queryClient, webhookId, null) };
}

export type SavedHeaders = Array<{ name: string; value: string }>;

/** The custom headers a save returned, with their values: shown once on the webhook's page, kept like the saved warning (this tab only, never fetched). */
export function leaveSavedHeaders(queryClient: QueryClient, webhookId: string, headers: SavedHeaders | null) {
  queryClient.setQueryData(notes.savedHeaders(webhookId), headers);
}

export function useSavedHeaders(webhookId: string) {
  const queryClient = useQueryClient();
  const headers = useQuery<SavedHeaders | null>({ queryKey: notes.savedHeaders(webhookId), queryFn: () => null, enabled: false }).data ?? null;
  return { headers, dismiss: () => leaveSavedHeaders(queryClient, webhookId, null) };
}

/** What the webhook list confirms when a page sends the admin back to it (a deleted webhook); kept like the saved warning. */
export function leaveListNotice(queryClient: QueryClient, notice: string | null) {
  queryClient.setQueryData(notes.listNotice, notice);
}

export function useListNotice() {
  const queryClient = useQueryClient();
  const notice = useQuery<string | null>({ queryKey: notes.listNotice, queryFn: () => null, enabled: false }).data ?? null;
  return { notice, dismiss: () => leaveListNotice(queryClient, null) };
}

/** A delivery, a resend or turning a webhook off changes its health, chart and log together: the returned function refreshes them. */
export function useRefreshWebhookViews() {
  const api = useSettingsApi();
  const queryClient = useQueryClient();
  // Stable across renders, so an effect may depend on it.
  return useCallback(
    (webhookId: string) =>
      Promise.all([
        queryClient.invalidateQueries(api.webhooks.list.queryFilter()),
        queryClient.invalidateQueries(api.webhooks.get.queryFilter({ id: webhookId })),
        queryClient.invalidateQueries(api.webhooks.chart.queryFilter({ id: webhookId })),
        queryClient.invalidateQueries(api.webhooks.messages.queryFilter({ id: webhookId })),
      ]),
    [api, queryClient],
  );
}

/**
 * How often a page asks again while it follows what an admin just sent: every
 * `quickMs` for the first 30 s after `since`, then every 15 s, since a message
 * held behind an earlier one, or waiting for a retry or a rate limit, may wait
 * for hours.
 */
export function followPollMs(since: number, quickMs: number): number {
  return Date.now() - since < 30_000 ? quickMs : 15_000;
}
