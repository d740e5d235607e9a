"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Badge, MessageStatusBadge } from "@/app/ui/badge";
import { Button } from "@/app/ui/button";
import { Dialog } from "@/app/ui/dialog";
import { inputClass } from "@/app/ui/field";
import { formatDateTime } from "@/app/ui/format";
import { EmptyState, ErrorState, Loading, messageOf } from "@/app/ui/states";
import { eventTypes } from "@/db/schema/event-types";
import { settingsApi } from "../../settings-api";
import { useViewer } from "../../settings-providers";
import { eventTypeLabels } from "../event-type-labels";
import { refreshWebhookViews, webhookQueries } from "../webhook-queries";
import { MessageAttempts } from "./message-attempts";
import { MessageOutcome } from "./message-outcome";

type Filters = { status?: "pending" | "succeeded" | "failed"; eventType?: (typeof eventTypes)[number]; candidateId?: string; from?: string; to?: string };

/** `datetime-local` values are local wall-clock times; the server wants an instant. */
const toInstant = (local: FormDataEntryValue | null) => (typeof local === "string" && local ? new Date(local).toISOString() : undefined);

export function DeliveryLog({ webhookId, enabled }: { webhookId: string; enabled: boolean }) {
  const viewer = useViewer();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<Filters>({});
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  const [resent, setResent] = useState<string | null>(null);
  const cursor = cursors.at(-1);
  const log = useQuery({
    queryKey: [...webhookQueries.messages(webhookId), filters, cursor],
    queryFn: () => settingsApi.webhooks.messages.query({ id: webhookId, ...filters, cursor, limit: 25 }),
    placeholderData: (previous) => previous,
    refetchInterval: 10_000,
  });
  const resend = useMutation({
    mutationFn: (messageId: string) => settingsApi.webhooks.resend.mutate({ messageId }),
    onSuccess: ({ messageId }) => {
      setResent(messageId);
      void refreshWebhookViews(queryClient, webhookId);
    },
  });

  function applyFilters(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => (form.get(name) as string | null)?.trim() || undefined;
    setFilters({
      status: text("status") as Filters["status"],
      eventType: text("eventType") as Filters["eventType"],
      candidateId: text("candidateId"),
      from: toInstant(form.get("from")),
      to: toInstant(form.get("to")),
    });
    setCursors([]);
  }

  return (
    <section aria-labelledby="log-title" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="log-title" className="font-semibold">
        Delivery log <span className="font-normal text-slate-500">(last 30 days)</span>
      </h2>
      <form onSubmit={applyFilters} className="mt-3 grid gap-3 sm:grid-cols-3 lg:grid-cols-6 lg:items-end">
        <label className="text-sm">
          Status
          <select name="status" className={inputClass} defaultValue="">
            <option value="">Any</option>
            <option value="succeeded">Delivered</option>
            <option value="failed">Failed</option>
            <option value="pending">Waiting</option>
          </select>
        </label>
        <label className="text-sm">
          Event type
          <select name="eventType" className={inputClass} defaultValue="">
            <option value="">Any</option>
            {eventTypes.map((type) => (
              <option key={type} value={type}>
                {eventTypeLabels[type]}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          Candidate id
          <input name="candidateId" placeholder="cand_…" className={inputClass} />
        </label>
        <label className="text-sm">
          From
          <input name="from" type="datetime-local" className={inputClass} />
        </label>
        <label className="text-sm">
          Until
          <input name="to" type="datetime-local" className={inputClass} />
        </label>
        <Button type="submit">Filter</Button>
      </form>
      {resent && <MessageOutcome key={resent} webhookId={webhookId} messageId={resent} />}
      {resend.isError && (
        <div className="mt-3">
          <ErrorState error={resend.error} />
        </div>
      )}
      <div className="mt-4">
        {log.isPending ? (
          <Loading label="Loading the delivery log…" />
        ) : log.isError ? (
          <ErrorState error={log.error} onRetry={() => log.refetch()} />
        ) : log.data.messages.length === 0 ? (
          <EmptyState title={Object.values(filters).some(Boolean) ? "No message matches these filters" : "No messages in the last 30 days"}>
            Messages appear here as events happen{viewer.role === "admin" ? ", or when you send a sample" : ""}.
          </EmptyState>
        ) : (
          <div className="relative overflow-x-auto">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="text-left text-slate-600">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Created
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Event
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Candidate
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Status
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Tries
                  </th>
                  <th scope="col" className="py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {log.data.messages.map((message) => (
                  <tr key={message.id} data-testid="log-row">
                    <td className="py-2 pr-4 whitespace-nowrap">{formatDateTime(message.createdAt)}</td>
                    <td className="py-2 pr-4">
                      {eventTypeLabels[message.eventType]}
                      {message.isTest && (
                        <span className="ml-1">
                          <Badge tone="slate">Sample</Badge>
                        </span>
                      )}
                      {message.origin === "resend" && (
                        <span className="ml-1">
                          <Badge tone="slate">Resent</Badge>
                        </span>
                      )}
                    </td>
                    <td className="py-2 pr-4 font-mono text-xs">{message.candidateId ?? "—"}</td>
                    <td className="py-2 pr-4">
                      <MessageStatusBadge status={message.status} />
                    </td>
                    <td className="py-2 pr-4">{message.attemptCount}</td>
                    <td className="py-2 text-right whitespace-nowrap">
                      <Button onClick={() => setOpen(message.id)}>Attempts</Button>
                      {viewer.role === "admin" && (
                        <Button
                          className="ml-2"
                          disabled={!enabled}
                          title={enabled ? undefined : "Turn the webhook on to resend"}
                          busy={resend.isPending && resend.variables === message.id}
                          onClick={() => resend.mutate(message.id)}
                        >
                          Resend
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <nav aria-label="Delivery log pages" className="mt-3 flex justify-end gap-2">
        <Button disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </Button>
        <Button disabled={!log.data?.nextCursor} onClick={() => log.data?.nextCursor && setCursors([...cursors, log.data.nextCursor])}>
          Older
        </Button>
      </nav>
      <Dialog open={open !== null} title="Delivery attempts" onClose={() => setOpen(null)}>
        {open && <MessageAttempts messageId={open} />}
      </Dialog>
      {viewer.role === "admin" && <ResendFailedSince webhookId={webhookId} enabled={enabled} />}
    </section>
  );
}

function ResendFailedSince({ webhookId, enabled }: { webhookId: string; enabled: boolean }) {
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: (since: string) => settingsApi.webhooks.resendFailedSince.mutate({ id: webhookId, since }),
    onSuccess: () => refreshWebhookViews(queryClient, webhookId),
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const since = toInstant(new FormData(event.currentTarget).get("since"));
    if (since) resend.mutate(since);
  }
  return (
    <form onSubmit={submit} className="mt-6 flex flex-wrap items-end gap-3 border-t border-slate-100 pt-4">
      <label className="text-sm">
        Resend every failed message since
        <input name="since" type="datetime-local" required className={inputClass} />
      </label>
      <Button type="submit" disabled={!enabled} busy={resend.isPending}>
        Resend failed
      </Button>
      <p role="status" className="text-sm text-slate-600">
        {resend.isError
          ? messageOf(resend.error)
          : resend.data &&
            `${resend.data.resent} message${resend.data.resent === 1 ? "" : "s"} queued again.${resend.data.more ? " More remain: resend again to continue." : ""}`}
      </p>
    </form>
  );
}
