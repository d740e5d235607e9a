"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { MessageStatusBadge } from "@/app/ui/badge";
import { formatDateTime } from "@/app/ui/format";
import { ErrorState } from "@/app/ui/states";
import { useSettingsApi } from "../../settings-api";
import { errorClassLabels } from "../error-class-labels";
import { followPollMs, useRefreshWebhookViews } from "../webhook-queries";
import { RequestBody } from "./message-attempts";

/** Follows one message (a sample or a resend) until its outcome is known, then says how it went and, to admins, what was sent. */
export function MessageOutcome({ webhookId, messageId }: { webhookId: string; messageId: string }) {
  const api = useSettingsApi();
  const refreshWebhookViews = useRefreshWebhookViews();
  const [startedAt] = useState(() => Date.now());
  const message = useQuery(
    api.webhooks.message.queryOptions(
      { messageId },
      {
        refetchInterval: (query) => {
          const data = query.state.data;
          return data && (data.attempts.length > 0 || data.message.status !== "pending") ? false : followPollMs(startedAt, 1_000);
        },
      },
    ),
  );
  const latest = message.data?.attempts.at(-1);
  const settled = latest !== undefined || (message.data !== undefined && message.data.message.status !== "pending");
  useEffect(() => {
    if (settled) void refreshWebhookViews(webhookId);
  }, [settled, refreshWebhookViews, webhookId]);

  if (message.isError) return <ErrorState error={message.error} />;
  return (
    <div data-testid="message-outcome" className="mt-3 rounded-md bg-slate-50 p-3 text-sm">
      <div role="status" aria-live="polite">
        {latest?.succeeded ? (
          <p>
            <MessageStatusBadge status="succeeded" /> The address answered {latest.responseStatus} in {latest.durationMs} ms.
          </p>
        ) : latest && message.data!.message.status === "pending" ? (
          <p>
            <MessageStatusBadge status="retrying" /> — next try at {formatDateTime(message.data!.message.nextAttemptAt)}. Attempt {latest.attempt} failed:{" "}
            <FailedTry attempt={latest} />.
          </p>
        ) : latest ? (
          <p>
            <MessageStatusBadge status="failed" /> Attempt {latest.attempt} failed: <FailedTry attempt={latest} />.
          </p>
        ) : message.data?.message.status === "failed" ? (
          <p>
            <MessageStatusBadge status="failed" /> {message.data.message.failureReason ?? "Not sent: no attempt was made. The message can be resent."}
          </p>
        ) : (
          <p className="flex items-center gap-2 text-slate-600">
            <span aria-hidden className="size-3 animate-spin rounded-full border-2 border-slate-400 border-t-transparent" />
            Waiting to be sent (after any earlier message for the same candidate)…
          </p>
        )}
      </div>
      {latest?.requestBody !== undefined && <RequestBody body={latest.requestBody} bytes={latest.requestBodyBytes ?? null} />}
    </div>
  );
}

/** Why a try failed: its error class and the status the address answered with, if any. */
function FailedTry({ attempt }: { attempt: { errorClass: keyof typeof errorClassLabels | null; responseStatus: number | null } }) {
  return (
    <>
      <strong>{attempt.errorClass ? errorClassLabels[attempt.errorClass] : "no answer"}</strong>
      {attempt.responseStatus !== null && ` (HTTP ${attempt.responseStatus})`}
    </>
  );
}
