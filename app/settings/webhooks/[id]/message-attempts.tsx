"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef } from "react";
import { Badge, MessageStatusBadge } from "@/app/ui/badge";
import { CopyButton } from "@/app/ui/copy-button";
import { EmptyState, ErrorState, Loading } from "@/app/ui/states";
import { Time } from "@/app/ui/time";
import { useSettingsApi } from "../../settings-api";
import { errorClassLabels } from "../error-class-labels";

import { indentJson } from "./indent-json";

/** What the log keeps of each body sent (server/webhooks/delivery/deliver.ts). */
const keptBodyBytes = 64 * 1024;

/** Message ids are long; the log shows their start and names the whole id for screen readers and on hover. */
export const shortId = (id: string) => `${id.slice(0, 10)}…`;

/**
 * One message: its event, why it ended unsent (if it did), its resend links,
 * and attempt by attempt what was sent and what the address answered
 * (headers and bodies for admins only: the server leaves them out for members).
 * Each attempt has a link of its own; the one the address names (`attempt`)
 * is scrolled to, marked, and shows its request body.
 */
export function MessageAttempts({
  messageId,
  attempt: pointedAt,
  onOpenMessage,
  linkToAttempt,
}: {
  messageId: string;
  attempt: number | null;
  onOpenMessage: (messageId: string) => void;
  linkToAttempt: (attempt: number) => string;
}) {
  const api = useSettingsApi();
  const message = useQuery(api.webhooks.message.queryOptions({ messageId }));
  const pointed = useRef<HTMLLIElement>(null);
  const loaded = message.isSuccess;
  useEffect(() => {
    if (loaded && pointedAt !== null) pointed.current?.scrollIntoView({ block: "nearest" });
  }, [loaded, pointedAt]);
  if (message.isPending) return <Loading label="Loading attempts…" />;
  if (message.isError) return <ErrorState error={message.error} onRetry={() => message.refetch()} />;
  const { message: sent, attempts } = message.data;
  return (
    <div className="max-h-[70vh] space-y-4 overflow-y-auto text-sm">
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-1">
        <dt className="text-slate-500">Event id</dt>
        <dd className="flex flex-wrap items-center gap-2">
          <code className="break-all font-mono text-xs">{sent.eventId}</code>
          <CopyButton value={sent.eventId} ariaLabel="Copy the event id" />
        </dd>
        <dt className="text-slate-500">Event time</dt>
        <dd>{sent.eventAt ? <Time iso={sent.eventAt} /> : "— (the event is no longer kept)"}</dd>
        <dt className="text-slate-500">Created</dt>
        <dd>
          <Time iso={sent.createdAt} />
        </dd>
        <dt className="text-slate-500">Status</dt>
        <dd>
          <MessageStatusBadge status={sent.status} endedUnsent={sent.failureReason !== null} />
        </dd>
        {sent.resentFrom && (
          <>
            <dt className="text-slate-500">Resends</dt>
            <dd>
              <MessageLink messageId={sent.resentFrom} onOpen={onOpenMessage} />
            </dd>
          </>
        )}
        {sent.resentTo && (
          <>
            <dt className="text-slate-500">Resent as</dt>
            <dd className="flex items-center gap-2">
              <MessageLink messageId={sent.resentTo.id} onOpen={onOpenMessage} /> <MessageStatusBadge status={sent.resentTo.status} />
            </dd>
          </>
        )}
      </dl>
      {sent.status === "failed" && sent.failureReason && (
        <p role="note" className="rounded-md bg-amber-50 p-3 text-amber-900">
          {sent.failureReason}
        </p>
      )}
      {attempts.length === 0 ? (
        sent.status === "pending" ? (
          <EmptyState title="Not attempted yet">The first attempt is on its way (after any earlier message for the same candidate).</EmptyState>
        ) : (
          !sent.failureReason && <EmptyState title="Not sent">No attempt was made. The message can be resent.</EmptyState>
        )
      ) : (
        <ol className="space-y-4">
          {attempts.map((attempt) => (
            <li
              key={`${attempt.attempt}-${attempt.startedAt}`}
              ref={attempt.attempt === pointedAt ? pointed : undefined}
              data-testid="attempt"
              aria-current={attempt.attempt === pointedAt ? "true" : undefined}
              className={`rounded-md border p-3 ${attempt.attempt === pointedAt ? "border-indigo-400 ring-2 ring-indigo-200" : "border-slate-200"}`}
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  <Link href={linkToAttempt(attempt.attempt)} scroll={false} className="text-indigo-700 hover:underline">
                    Attempt {attempt.attempt}
                  </Link>
                  <CopyButton
                    value={new URL(linkToAttempt(attempt.attempt), window.location.origin).toString()}
                    label="Copy link"
                    ariaLabel={`Copy a link to attempt ${attempt.attempt}`}
                    className="px-2 py-0.5 text-xs font-normal"
                  />
                </p>
                {attempt.succeeded ? (
                  <Badge tone="green">Succeeded</Badge>
                ) : (
                  <Badge tone="red">{attempt.errorClass ? errorClassLabels[attempt.errorClass] : "Failed"}</Badge>
                )}
              </div>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                <dt className="text-slate-500">Sent</dt>
                <dd>
                  <Time iso={attempt.startedAt} />
                </dd>
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
              {attempt.requestBody !== undefined && (
                <RequestBody body={attempt.requestBody} bytes={attempt.requestBodyBytes ?? null} open={attempt.attempt === pointedAt} />
              )}
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
      )}
    </div>
  );
}

/** Opens another message of the log (a resend, or what a resend resends) in place of this one. */
export function MessageLink({ messageId, onOpen }: { messageId: string; onOpen: (messageId: string) => void }) {
  return (
    <button
      type="button"
      onClick={() => onOpen(messageId)}
      title={messageId}
      aria-label={`Open message ${messageId}`}
      className="font-mono text-xs text-indigo-700 underline"
    >
      {shortId(messageId)}
    </button>
  );
}

/** The body an attempt sent, pretty for reading (its fields in the order sent); Copy gives the exact text kept, byte for byte. */
export function RequestBody({ body, bytes, open = false }: { body: string | null; bytes: number | null; open?: boolean }) {
  if (body === null) {
    return <p className="mt-2 text-slate-600">Request body: not kept for attempts made before the log started keeping bodies.</p>;
  }
  const cut = bytes !== null && bytes > keptBodyBytes;
  return (
    <details className="mt-2" open={open || undefined}>
      <summary className="cursor-pointer text-slate-600">Request body {cut && `(first 64 KiB of ${bytes.toLocaleString()} bytes)`}</summary>
      <div className="mt-1 flex justify-end">
        <CopyButton value={body} label="Copy body" />
      </div>
      <pre data-testid="request-body" className="mt-1 max-h-80 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-900 p-2 text-xs text-slate-100">
        {indentJson(body)}
      </pre>
    </details>
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
