"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Badge, MessageStatusBadge } from "@/app/ui/badge";
import { Button } from "@/app/ui/button";
import { CopyButton } from "@/app/ui/copy-button";
import { Dialog } from "@/app/ui/dialog";
import { inputClass } from "@/app/ui/field";
import { formatDateTime } from "@/app/ui/format";
import { ResponsiveTable } from "@/app/ui/responsive-table";
import { EmptyState, ErrorState, Loading, messageOf } from "@/app/ui/states";
import { Time } from "@/app/ui/time";
import { type EventType, eventTypes } from "@/db/schema/event-types";
import { type MessageStatus, messageStatuses } from "@/db/schema/message-statuses";
import { logSearch } from "@/server/settings/webhooks/log-search.types";
import { type SettingsOutputs, useSettingsApi, useSettingsClient } from "../../settings-api";
import { useViewer } from "../../settings-providers";
import { eventTypeLabels } from "../event-type-labels";
import { logParams } from "../log-params";
import { useRefreshWebhookViews } from "../webhook-queries";
import { MessageAttempts, MessageLink } from "./message-attempts";
import { MessageOutcome } from "./message-outcome";

type Filters = { status?: MessageStatus; eventType?: EventType; search?: string; from?: string; to?: string };

/** `datetime-local` values are local wall-clock times; the server (and the address) want an instant. */
const toInstant = (local: FormDataEntryValue | null) => (typeof local === "string" && local ? new Date(local).toISOString() : undefined);

/** An instant as a `datetime-local` value, in the browser's time zone. */
function toLocalInput(iso: string | undefined) {
  if (!iso) return undefined;
  const at = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

const isInstant = (value: string | null): value is string => value !== null && !Number.isNaN(Date.parse(value));

function filtersOf(params: URLSearchParams): Filters {
  const status = params.get(logParams.status);
  const eventType = params.get(logParams.eventType);
  const from = params.get(logParams.from);
  const to = params.get(logParams.to);
  return {
    status: messageStatuses.find((known) => known === status),
    eventType: eventTypes.find((known) => known === eventType),
    search: params.get(logParams.search)?.trim() || undefined,
    from: isInstant(from) ? new Date(from).toISOString() : undefined,
    to: isInstant(to) ? new Date(to).toISOString() : undefined,
  };
}

export function DeliveryLog({ webhookId, enabled }: { webhookId: string; enabled: boolean }) {
  const viewer = useViewer();
  const api = useSettingsApi();
  const refreshWebhookViews = useRefreshWebhookViews();
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = filtersOf(params);
  const filterKey = JSON.stringify(filters);
  const checkedSearch = filters.search === undefined ? null : logSearch.safeParse(filters.search);
  const searchProblem = checkedSearch && !checkedSearch.success ? checkedSearch.error.issues[0]!.message : null;
  const open = params.get(logParams.message);
  const attempt = Number(params.get(logParams.attempt)) || null;
  // The pages read so far, for the filters they were read with: new filters start again from the newest.
  const [pages, setPages] = useState<{ filterKey: string; cursors: string[] }>({ filterKey, cursors: [] });
  const cursors = pages.filterKey === filterKey ? pages.cursors : [];
  const setCursors = (next: string[]) => setPages({ filterKey, cursors: next });
  const [resent, setResent] = useState<string | null>(null);
  const cursor = cursors.at(-1);
  const log = useQuery(
    api.webhooks.messages.queryOptions(
      { id: webhookId, ...filters, cursor, limit: 25 },
      { enabled: searchProblem === null, placeholderData: (previous) => previous, refetchInterval: 10_000 },
    ),
  );
  const resend = useMutation(
    api.webhooks.resend.mutationOptions({
      onSuccess: ({ messageId }) => {
        setResent(messageId);
        void refreshWebhookViews(webhookId);
      },
    }),
  );

  /** A new entry in the browser's history, so Back returns to what was shown before. */
  function navigate(changes: Partial<Record<keyof typeof logParams, string | undefined>>) {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      const param = logParams[name as keyof typeof logParams];
      if (value === undefined) next.delete(param);
      else next.set(param, value);
    }
    const query = next.toString();
    router.push(query ? `${pathname}?${query}` : pathname, { scroll: false });
  }
  const openMessage = (messageId: string) => navigate({ message: messageId, attempt: undefined });

  function applyFilters(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => (form.get(name) as string | null)?.trim() || undefined;
    navigate({
      status: text("status"),
      eventType: text("eventType"),
      search: text("search"),
      from: toInstant(form.get("from")),
      to: toInstant(form.get("to")),
      message: undefined,
      attempt: undefined,
    });
  }

  return (
    <section aria-labelledby="log-title" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="log-title" className="font-semibold">
        Delivery log <span className="font-normal text-slate-500">(last 30 days)</span>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Newest first by when each message was created; messages created together (sending past events) in the order their events happened. Filters and the open
        message are in the page&apos;s address: copy it to share what you see.
      </p>
      {/* Keyed by the filters, so Back (new filters from the address) shows them in the form too. */}
      <form key={filterKey} onSubmit={applyFilters} noValidate className="mt-3 grid gap-3 sm:grid-cols-3 lg:grid-cols-6 lg:items-start">
        <label className="text-sm">
          Status
          <select name="status" className={inputClass} defaultValue={filters.status ?? ""}>
            <option value="">Any</option>
            <option value="succeeded">Delivered</option>
            <option value="failed">Failed or not sent</option>
            <option value="pending">Waiting</option>
          </select>
        </label>
        <label className="text-sm">
          Event type
          <select name="eventType" className={inputClass} defaultValue={filters.eventType ?? ""}>
            <option value="">Any</option>
            {eventTypes.map((type) => (
              <option key={type} value={type}>
                {eventTypeLabels[type]}
              </option>
            ))}
          </select>
        </label>
        <div className="text-sm">
          <label htmlFor={`${webhookId}-search`}>Event or candidate id</label>
          <input
            id={`${webhookId}-search`}
            name="search"
            type="search"
            placeholder="evt_… or cand_…"
            defaultValue={filters.search}
            aria-invalid={searchProblem ? true : undefined}
            aria-describedby={searchProblem ? `${webhookId}-search-problem` : undefined}
            className={inputClass}
          />
          {searchProblem && (
            <p id={`${webhookId}-search-problem`} className="mt-1 text-red-700">
              {searchProblem}
            </p>
          )}
        </div>
        <label className="text-sm">
          Created from
          <input name="from" type="datetime-local" defaultValue={toLocalInput(filters.from)} className={inputClass} />
        </label>
        <label className="text-sm">
          Created until
          <input name="to" type="datetime-local" defaultValue={toLocalInput(filters.to)} className={inputClass} />
        </label>
        <Button type="submit" className="lg:mt-6">
          Filter
        </Button>
      </form>
      {resent && <MessageOutcome key={resent} webhookId={webhookId} messageId={resent} />}
      {resend.isError && (
        <div className="mt-3">
          <ErrorState error={resend.error} />
        </div>
      )}
      <div className="mt-4">
        {searchProblem ? null : log.isPending ? (
          <Loading label="Loading the delivery log…" />
        ) : log.isError ? (
          <ErrorState error={log.error} onRetry={() => log.refetch()} />
        ) : log.data.messages.length === 0 ? (
          <EmptyState title={Object.values(filters).some(Boolean) ? "No message matches these filters" : "No messages in the last 30 days"}>
            Messages appear here as events happen{viewer.role === "admin" ? ", or when you send a sample" : ""}.
          </EmptyState>
        ) : (
          <ResponsiveTable
            rows={log.data.messages}
            rowKey={(message) => message.id}
            rowTestId="log-row"
            cardsBelow="lg"
            columns={[
              {
                label: "Event time",
                header: (
                  <>
                    Event time <span className="block text-xs font-normal text-slate-500">message created</span>
                  </>
                ),
                // When the event happened, and below it when its message entered the log (the log's order).
                cell: (message) => (
                  <span className="max-lg:text-right">
                    {message.eventAt ? <Time iso={message.eventAt} testId="event-at" /> : <span title="The event is no longer kept">—</span>}
                    <span className="block text-xs text-slate-500">
                      created <Time iso={message.createdAt} testId="created-at" />
                    </span>
                  </span>
                ),
              },
              {
                label: "Event",
                cell: (message) => (
                  <span>
                    {eventTypeLabels[message.eventType]}
                    {message.isTest && (
                      <span className="ml-1">
                        <Badge tone="slate">Sample</Badge>
                      </span>
                    )}
                    {message.origin === "resend" && (
                      <span className="ml-1">
                        <Badge tone="slate">Resend</Badge>
                      </span>
                    )}
                    <ResendLinks message={message} onOpen={openMessage} />
                  </span>
                ),
              },
              {
                label: "Event id",
                cell: (message) => (
                  <span className="flex items-center gap-2">
                    <code data-testid="event-id" className="font-mono text-xs max-lg:break-all lg:whitespace-nowrap">
                      {message.eventId}
                    </code>
                    <CopyButton value={message.eventId} ariaLabel={`Copy event id ${message.eventId}`} className="px-2 py-1 text-xs" />
                  </span>
                ),
              },
              { label: "Candidate", cell: (message) => <Candidate message={message} /> },
              {
                label: "Status",
                cell: (message) => (
                  <span data-testid="log-status" className="whitespace-nowrap text-right lg:text-left">
                    <MessageStatusBadge status={message.status} endedUnsent={message.failureReason !== null} />
                    <span className="block text-xs text-slate-500">{message.attemptCount === 1 ? "1 try" : `${message.attemptCount} tries`}</span>
                  </span>
                ),
              },
              {
                className: "whitespace-nowrap max-lg:flex max-lg:flex-wrap max-lg:gap-2",
                actions: (message) => (
                  <span data-testid="log-actions" className="inline-flex gap-2">
                    <Button onClick={() => openMessage(message.id)}>Attempts</Button>
                    {viewer.role === "admin" && (
                      <Button
                        disabled={!enabled}
                        title={enabled ? undefined : "Turn the webhook on to resend"}
                        busy={resend.isPending && resend.variables?.messageId === message.id}
                        onClick={() => resend.mutate({ messageId: message.id })}
                      >
                        Resend
                      </Button>
                    )}
                  </span>
                ),
              },
            ]}
          />
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
      <Dialog
        open={open !== null}
        title="Delivery attempts"
        // Also called when Back took the message out of the address and closed the dialog: then there is nothing to change.
        onClose={() => open !== null && navigate({ message: undefined, attempt: undefined })}
      >
        {open && (
          <MessageAttempts
            key={open}
            messageId={open}
            attempt={attempt}
            onOpenMessage={openMessage}
            linkToAttempt={(number) => {
              const link = new URLSearchParams(params);
              link.set(logParams.message, open);
              link.set(logParams.attempt, String(number));
              return `${pathname}?${link}`;
            }}
          />
        )}
      </Dialog>
      {viewer.role === "admin" && <ResendFailedSince webhookId={webhookId} enabled={enabled} />}
    </section>
  );
}

type LoggedMessage = SettingsOutputs["webhooks"]["messages"]["messages"][number];

/** The candidate's name beside the id; a sample's made-up candidate is named as one; a deleted or unknown candidate shows the id alone. */
function Candidate({ message }: { message: LoggedMessage }) {
  if (message.candidateId === null) {
    return message.candidateName ? <span>{message.candidateName} (sample)</span> : <span>—</span>;
  }
  return (
    <span className="min-w-0 max-lg:text-right">
      {message.candidateName && <span className="block">{message.candidateName}</span>}
      <code className="block font-mono text-xs text-slate-600 max-lg:break-all lg:whitespace-nowrap">{message.candidateId}</code>
    </span>
  );
}

/** A resend names what it resends; a resent message links to its newest resend. */
function ResendLinks({ message, onOpen }: { message: LoggedMessage; onOpen: (messageId: string) => void }) {
  if (!message.resentFrom && !message.resentTo) return null;
  return (
    <span className="mt-1 block space-y-0.5 text-xs text-slate-600">
      {message.resentFrom && (
        <span className="block" data-testid="resends">
          Resends <MessageLink messageId={message.resentFrom} onOpen={onOpen} />
        </span>
      )}
      {message.resentTo && (
        <span className="flex flex-wrap items-center gap-1 whitespace-nowrap" data-testid="resent-to">
          Resent → <MessageLink messageId={message.resentTo.id} onOpen={onOpen} /> <MessageStatusBadge status={message.resentTo.status} />
        </span>
      )}
    </span>
  );
}

/** Counts first, asks, then resends: the admin sees how many messages go (at most 1,000 at a time) before any does. */
function ResendFailedSince({ webhookId, enabled }: { webhookId: string; enabled: boolean }) {
  const api = useSettingsApi();
  const settingsClient = useSettingsClient();
  const refreshWebhookViews = useRefreshWebhookViews();
  const [since, setSince] = useState<string | null>(null);
  const count = useMutation({
    // A read, asked for on demand: the count must be fresh when the question is shown.
    mutationFn: (from: string) => settingsClient.webhooks.countFailedSince.query({ id: webhookId, since: from }),
  });
  const resend = useMutation(
    api.webhooks.resendFailedSince.mutationOptions({
      onSuccess: () => {
        setSince(null);
        void refreshWebhookViews(webhookId);
      },
    }),
  );
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const from = toInstant(new FormData(event.currentTarget).get("since"));
    if (!from) return;
    resend.reset();
    setSince(from);
    count.mutate(from);
  }
  const counted = count.data;
  const confirming = since !== null && counted !== undefined && counted.failed > 0 && !count.isPending;
  return (
    <form onSubmit={submit} className="mt-6 flex flex-wrap items-end gap-3 border-t border-slate-100 pt-4">
      <label className="text-sm">
        Resend every failed message since
        <input name="since" type="datetime-local" required className={inputClass} />
      </label>
      <Button type="submit" disabled={!enabled} busy={count.isPending}>
        Resend failed…
      </Button>
      <p role="status" className="text-sm text-slate-600">
        {count.isError
          ? messageOf(count.error)
          : resend.isError
            ? messageOf(resend.error)
            : resend.data
              ? `${plural(resend.data.resent, "message")} queued again.${resend.data.more ? " More remain: resend again to continue." : ""}`
              : since !== null && counted?.failed === 0 && `No failed message since ${formatDateTime(since)}: nothing to resend.`}
      </p>
      <Dialog open={confirming} title="Resend failed messages?" onClose={() => setSince(null)}>
        {counted && since && (
          <>
            <p className="text-sm text-slate-700" data-testid="resend-count">
              {counted.resendNow < counted.failed
                ? `${counted.resendNow.toLocaleString()} of ${plural(counted.failed, "failed message")} since ${formatDateTime(since)} will be resent now (at most 1,000 at a time; resend again for the rest).`
                : `${plural(counted.failed, "failed message")} since ${formatDateTime(since)} will be resent, oldest first, with the candidates' current data.`}
            </p>
            {resend.isError && (
              <div className="mt-3">
                <ErrorState error={resend.error} />
              </div>
            )}
            <div className="mt-6 flex justify-end gap-2">
              <Button onClick={() => setSince(null)}>Cancel</Button>
              <Button variant="primary" busy={resend.isPending} onClick={() => resend.mutate({ id: webhookId, since })}>
                Resend {counted.resendNow.toLocaleString()}
              </Button>
            </div>
          </>
        )}
      </Dialog>
    </form>
  );
}

const plural = (count: number, noun: string) => `${count.toLocaleString()} ${noun}${count === 1 ? "" : "s"}`;
