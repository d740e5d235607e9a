"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { MessageStatusBadge } from "@/app/ui/badge";
import { formatDateTime } from "@/app/ui/format";
import { ErrorState } from "@/app/ui/states";
import { settingsApi } from "../../settings-api";

/** Follows one message (a sample or a resend) until its first attempt is known, then says how it went. */
export function MessageOutcome({ messageId }: { messageId: string }) {
  const queryClient = useQueryClient();
  const message = useQuery({
    queryKey: ["message", messageId],
    queryFn: () => settingsApi.webhooks.message.query({ messageId }),
    refetchInterval: (query) => (query.state.data && query.state.data.attempts.length > 0 ? false : 1_000),
  });
  const latest = message.data?.attempts.at(-1);
  // Once the outcome is known the log, the chart and the health figures have changed too.
  useEffect(() => {
    if (latest) void queryClient.invalidateQueries({ predicate: (query) => ["messages", "chart", "webhook", "webhooks"].includes(query.queryKey[0] as string) });
  }, [latest, queryClient]);
  if (message.isError) return <ErrorState error={message.error} />;
  return (
    <div role="status" aria-live="polite" data-testid="message-outcome" className="mt-3 rounded-md bg-slate-50 p-3 text-sm">
      {!latest ? (
        <p className="flex items-center gap-2 text-slate-600">
          <span aria-hidden className="size-3 animate-spin rounded-full border-2 border-slate-400 border-t-transparent" />
          Sending…
        </p>
      ) : latest.succeeded ? (
        <p>
          <MessageStatusBadge status="succeeded" /> The address answered {latest.responseStatus} in {latest.durationMs} ms.
        </p>
      ) : (
        <p>
          <MessageStatusBadge status="failed" /> Attempt {latest.attempt} failed: <strong>{latest.errorClass}</strong>
          {latest.responseStatus !== null && ` (HTTP ${latest.responseStatus})`}.
          {message.data!.message.status === "pending" && ` Next try ${formatDateTime(message.data!.message.nextAttemptAt)}.`}
        </p>
      )}
    </div>
  );
}
