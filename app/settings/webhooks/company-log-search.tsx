"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import type { FormEvent } from "react";
import { MessageStatusBadge } from "@/app/ui/badge";
import { Button } from "@/app/ui/button";
import { inputClass } from "@/app/ui/field";
import { EmptyState, ErrorState, Loading } from "@/app/ui/states";
import { Time } from "@/app/ui/time";
import { logSearch } from "@/server/settings/webhooks/log-search.types";
import { useSettingsApi } from "../settings-api";
import { eventTypeLabels } from "./event-type-labels";
import { logParams } from "./log-params";

/** The address parameter that holds the search, so a result list can be shared and Back returns to it. */
const findParam = "find";

/**
 * "Find this event id" across every webhook of the company (or a candidate
 * id, or the start of either): each message found links to it in its
 * webhook's log. Members see what they see in each log (addresses masked).
 */
export function CompanyLogSearch() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const text = params.get(findParam)?.trim() || null;
  const checked = text === null ? null : logSearch.safeParse(text);
  const problem = checked && !checked.success ? checked.error.issues[0]!.message : null;
  const api = useSettingsApi();
  const found = useQuery(api.webhooks.searchLog.queryOptions({ search: text ?? "" }, { enabled: text !== null && problem === null }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = (new FormData(event.currentTarget).get(findParam) as string | null)?.trim();
    router.push(value ? `${pathname}?${new URLSearchParams({ [findParam]: value })}` : pathname, { scroll: false });
  }

  return (
    <section aria-labelledby="find-title" className="mt-10">
      <h2 id="find-title" className="text-lg font-semibold">
        Find an event on every webhook
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Paste an event id (as a receiver logged it) or a candidate id, or their start, to see its messages to each of your company&apos;s webhooks in the last
        30 days.
      </p>
      <form key={text} onSubmit={submit} noValidate className="mt-3 flex flex-wrap items-start gap-3">
        <div className="min-w-0 grow text-sm sm:max-w-md">
          <label htmlFor="find-event">Event or candidate id</label>
          <input
            id="find-event"
            name={findParam}
            type="search"
            placeholder="evt_… or cand_…"
            defaultValue={text ?? undefined}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? "find-event-problem" : undefined}
            className={inputClass}
          />
          {problem && (
            <p id="find-event-problem" className="mt-1 text-red-700">
              {problem}
            </p>
          )}
        </div>
        <Button type="submit" className="sm:mt-6">
          Find
        </Button>
      </form>
      <div className="mt-4">
        {text === null || problem ? null : found.isPending ? (
          <Loading label="Searching every webhook's log…" />
        ) : found.isError ? (
          <ErrorState error={found.error} onRetry={() => found.refetch()} />
        ) : found.data.messages.length === 0 ? (
          <EmptyState title="No message found">No webhook of your company was sent a message for {text} in the last 30 days.</EmptyState>
        ) : (
          <ul className="space-y-2" aria-label="Messages found">
            {found.data.messages.map((message) => (
              <li key={message.id} data-testid="found-message" className="rounded-md border border-slate-200 bg-white p-3 text-sm">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <Link
                    href={`/settings/webhooks/${message.webhook.id}?${new URLSearchParams({ [logParams.message]: message.id })}`}
                    className="min-w-0 break-all font-medium text-indigo-700 hover:underline"
                  >
                    {message.webhook.name ?? message.webhook.address}
                  </Link>
                  <MessageStatusBadge status={message.status} endedUnsent={message.failureReason !== null} />
                </div>
                <p className="mt-1 text-slate-700">
                  {eventTypeLabels[message.eventType]}
                  {message.isTest && " (sample)"}
                  {message.origin === "resend" && " (resend)"} · <code className="break-all font-mono text-xs">{message.eventId}</code>
                </p>
                <p className="mt-1 text-xs text-slate-600">
                  Event time {message.eventAt ? <Time iso={message.eventAt} /> : "—"} · created <Time iso={message.createdAt} /> ·{" "}
                  {message.attemptCount === 1 ? "1 try" : `${message.attemptCount} tries`}
                </p>
              </li>
            ))}
          </ul>
        )}
        {found.data?.limited && <p className="mt-2 text-sm text-slate-600">Only the newest 100 are listed: paste more of the id to narrow the search.</p>}
      </div>
    </section>
  );
}
