"use client";
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/app/ui/badge";
import { formatDateTime } from "@/app/ui/format";
import { EmptyState, ErrorState, Loading } from "@/app/ui/states";
import { settingsApi } from "../../settings-api";
import { webhookQueries } from "../webhook-queries";

/** What was sent and what the address answered, attempt by attempt (headers and bodies for admins only). */
export function MessageAttempts({ messageId }: { messageId: string }) {
  const message = useQuery({ queryKey: webhookQueries.message(messageId), queryFn: () => settingsApi.webhooks.message.query({ messageId }) });
  if (message.isPending) return <Loading label="Loading attempts…" />;
  if (message.isError) return <ErrorState error={message.error} onRetry={() => message.refetch()} />;
  const { attempts } = message.data;
  if (attempts.length === 0 && message.data.message.failureReason) return <EmptyState title="Not sent">{message.data.message.failureReason}</EmptyState>;
  if (attempts.length === 0) return <EmptyState title="Not attempted yet">The first attempt is on its way.</EmptyState>;
  return (
    <ol className="max-h-[60vh] space-y-4 overflow-y-auto">
      {attempts.map((attempt) => (
        <li key={`${attempt.attempt}-${attempt.startedAt}`} className="rounded-md border border-slate-200 p-3 text-sm">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="font-medium">Attempt {attempt.attempt}</p>
            {attempt.succeeded ? <Badge tone="green">Succeeded</Badge> : <Badge tone="red">{attempt.errorClass ?? "Failed"}</Badge>}
          </div>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="text-slate-500">Sent</dt>
            <dd>{formatDateTime(attempt.startedAt)}</dd>
            <dt className="text-slate-500">To</dt>
            <dd className="break-all font-mono text-xs">{attempt.address}</dd>
            <dt className="text-slate-500">Answer</dt>
            <dd>
              {attempt.responseStatus === null ? "No answer" : `HTTP ${attempt.responseStatus}`} after {attempt.durationMs} ms
            </dd>
            {attempt.errorMessage && (
              <>
                <dt className="text-slate-500">Error</dt>
                <dd>{attempt.errorMessage}</dd>
              </>
            )}
          </dl>
          {attempt.requestHeaders && <HeaderList title="Request headers" headers={attempt.requestHeaders} />}
          {attempt.responseHeaders && <HeaderList title="Response headers" headers={attempt.responseHeaders} />}
          {attempt.responseBody !== undefined && (
            <details className="mt-2">
              <summary className="cursor-pointer text-slate-600">Response body (excerpt)</summary>
              <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-900 p-2 text-xs text-slate-100">
                {attempt.responseBody || "(empty)"}
              </pre>
            </details>
          )}
        </li>
      ))}
    </ol>
  );
}

function HeaderList({ title, headers }: { title: string; headers: Record<string, string> }) {
  return (
    <details className="mt-2">
      <summary className="cursor-pointer text-slate-600">{title}</summary>
      <pre className="mt-1 overflow-x-auto rounded bg-slate-900 p-2 text-xs text-slate-100">
        {Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}`)
          .join("\n")}
      </pre>
    </details>
  );
}
