"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { WebhookStateBadge } from "@/app/ui/badge";
import { formatDateTime, formatSuccess } from "@/app/ui/format";
import { EmptyState, ErrorState, Loading } from "@/app/ui/states";
import { useSettingsApi } from "../settings-api";
import { useViewer } from "../settings-providers";
import { eventTypeLabels } from "./event-type-labels";
import { healthSentence } from "./webhook-health-text";
import { useListNotice } from "./webhook-queries";

export function WebhookList() {
  const viewer = useViewer();
  const api = useSettingsApi();
  const list = useQuery(api.webhooks.list.queryOptions(undefined, { refetchInterval: 30_000 }));
  const atLimit = list.data ? list.data.webhooks.length >= list.data.limit : false;
  const listNotice = useListNotice();

  return (
    <section aria-labelledby="webhooks-title">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="webhooks-title" className="text-2xl font-semibold tracking-tight">
            Webhooks
          </h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">
            Signed messages sent when a candidate is submitted, scored, ready or changes status.
            {list.data && (
              <span className="ml-1 font-medium text-slate-800">
                {list.data.webhooks.length} of {list.data.limit} webhooks used.
              </span>
            )}
          </p>
        </div>
        {viewer.role === "admin" &&
          (atLimit ? (
            <p className="text-sm text-slate-600">Your company has reached the limit of {list.data!.limit} webhooks.</p>
          ) : (
            <Link href="/settings/webhooks/new" className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-700">
              Add webhook
            </Link>
          ))}
      </div>
      {listNotice.notice && (
        <div className="mt-4 flex items-start justify-between gap-3 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900">
          <p role="status" className="min-w-0 wrap-anywhere">
            {listNotice.notice}
          </p>
          <button type="button" className="font-medium underline" onClick={listNotice.dismiss}>
            Dismiss
          </button>
        </div>
      )}
      <div className="mt-6">
        {list.isPending ? (
          <Loading label="Loading webhooks…" />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => list.refetch()} />
        ) : list.data.webhooks.length === 0 ? (
          <EmptyState title="No webhooks yet">
            {viewer.role === "admin" ? "Add one to receive a message whenever a candidate changes." : "An admin of your company can add one."}
          </EmptyState>
        ) : (
          <ul className="space-y-3">
            {list.data.webhooks.map((webhook) => (
              <li key={webhook.id} className="rounded-lg border border-slate-200 bg-white p-4 hover:border-slate-300">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <Link
                      href={`/settings/webhooks/${webhook.id}`}
                      className={`font-medium text-indigo-700 hover:underline ${webhook.name ? "wrap-anywhere" : "line-clamp-2 break-all font-mono text-sm"}`}
                      title={webhook.name ? undefined : webhook.address}
                    >
                      {webhook.name ?? webhook.address}
                    </Link>
                    {webhook.name && (
                      // An address can be 2,000 characters: two lines here, all of it on the webhook's page.
                      <p className="line-clamp-2 break-all font-mono text-xs text-slate-600" title={webhook.address}>
                        {webhook.address}
                      </p>
                    )}
                    {webhook.description && <p className="mt-1 wrap-anywhere text-sm text-slate-700">{webhook.description}</p>}
                    <p className="mt-1 wrap-anywhere text-xs text-slate-500">
                      {webhook.eventTypes.map((type) => eventTypeLabels[type]).join(", ")} ·{" "}
                      {webhook.interviews === null
                        ? "All interviews"
                        : `${webhook.interviews.length} chosen interview${webhook.interviews.length === 1 ? "" : "s"}`}
                    </p>
                  </div>
                  <WebhookStateBadge state={webhook.state} />
                </div>
                <p className="mt-2 text-sm text-slate-700" data-testid="webhook-health">
                  {healthSentence(webhook)}
                </p>
                <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
                  <div>
                    <dt className="text-slate-500">Tries succeeded (24 h)</dt>
                    <dd>{formatSuccess(webhook.successRate24h, webhook.tries24h)}</dd>
                  </div>
                  <div>
                    <dt className="text-slate-500">Tries succeeded (7 days)</dt>
                    <dd>{formatSuccess(webhook.successRate7d, webhook.tries7d)}</dd>
                  </div>
                  <div>
                    <dt className="text-slate-500">Last delivery</dt>
                    <dd>{formatDateTime(webhook.lastDeliveryAt)}</dd>
                  </div>
                  <div>
                    <dt className="text-slate-500">Messages waiting</dt>
                    <dd>{webhook.waitingMessages}</dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
