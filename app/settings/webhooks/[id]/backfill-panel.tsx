"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "@/app/ui/button";
import { Dialog } from "@/app/ui/dialog";
import { inputClass } from "@/app/ui/field";
import { formatDateTime } from "@/app/ui/format";
import { ErrorState, Loading } from "@/app/ui/states";
import { useSettingsApi } from "../../settings-api";
import { useRefreshWebhookViews } from "../webhook-queries";

/** `YYYY-MM-DDTHH:mm` in the browser's time zone, as <input type="datetime-local"> takes it. */
function localInputValue(date: Date) {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

const events = (count: number) => `${count.toLocaleString()} event${count === 1 ? "" : "s"}`;

/**
 * Sends the webhook every event of the history since a time that it has not
 * had a message for (before it existed, while it was off, or for interviews
 * and types added later). The dialog counts first; each confirmation sends at
 * most one batch and says when more remain.
 */
export function BackfillPanel({ webhookId, enabled, onQueued }: { webhookId: string; enabled: boolean; onQueued: () => void }) {
  const api = useSettingsApi();
  const queryClient = useQueryClient();
  const refreshWebhookViews = useRefreshWebhookViews();
  const fieldId = useId();
  const [open, setOpen] = useState(false);
  const [since, setSince] = useState(() => localInputValue(new Date(Date.now() - 24 * 3_600_000)));
  const sinceDate = since ? new Date(since) : null;
  const sinceIso = sinceDate && !Number.isNaN(sinceDate.getTime()) ? sinceDate.toISOString() : null;
  const count = useQuery(
    api.webhooks.countBackfill.queryOptions({ id: webhookId, since: sinceIso ?? "" }, { enabled: open && sinceIso !== null, staleTime: 0 }),
  );
  const send = useMutation(
    api.webhooks.backfill.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        onQueued();
        await Promise.all([refreshWebhookViews(webhookId), queryClient.invalidateQueries(api.webhooks.countBackfill.queryFilter({ id: webhookId }))]);
      },
    }),
  );

  return (
    <section aria-labelledby="backfill-title" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="backfill-title" className="font-semibold">
        Send past events
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Sends every event since a time that matches this webhook&apos;s events and interviews and was never sent to it: from before it was added, while it was
        off, or for events and interviews added since. Each candidate&apos;s events are sent in the order they happened, after any of theirs already sent.
      </p>
      {send.data && (
        <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
          {send.data.sent === 0 ? "Nothing was left to send." : `${events(send.data.sent)} queued for this webhook.`}
          {send.data.more && " More remain: send past events again to queue the next batch."}
        </p>
      )}
      <Button
        className="mt-3"
        disabled={!enabled}
        onClick={() => {
          send.reset();
          setOpen(true);
        }}
      >
        Send past events…
      </Button>
      {!enabled && <p className="mt-2 text-sm text-slate-600">Turn the webhook on to send it past events.</p>}
      <Dialog open={open} title="Send past events to this webhook?" onClose={() => setOpen(false)}>
        <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800">
          Send every event since
        </label>
        <input id={fieldId} type="datetime-local" value={since} onChange={(event) => setSince(event.target.value)} className={inputClass} />
        <div className="mt-3 text-sm text-slate-700" data-testid="backfill-count">
          {sinceIso === null ? (
            <p className="text-red-700">Enter a date and time.</p>
          ) : count.isPending ? (
            <Loading label="Counting the events…" />
          ) : count.isError ? (
            <ErrorState error={count.error} onRetry={() => count.refetch()} />
          ) : count.data.events === 0 ? (
            <p>No event since {formatDateTime(sinceIso)} is missing: nothing to send.</p>
          ) : (
            <p>
              {events(count.data.events)} since {formatDateTime(sinceIso)} match this webhook and were never sent to it.
              {count.data.events > count.data.batch && ` They go ${count.data.batch.toLocaleString()} at a time, oldest first: send again for the rest.`}
            </p>
          )}
        </div>
        {send.isError && (
          <div className="mt-3">
            <ErrorState error={send.error} />
          </div>
        )}
        <div className="mt-6 flex justify-end gap-2">
          <Button onClick={() => setOpen(false)}>Cancel</Button>
          <Button
            variant="primary"
            busy={send.isPending}
            disabled={!count.data || count.data.events === 0}
            onClick={() => sinceIso && send.mutate({ id: webhookId, since: sinceIso })}
          >
            {count.data && count.data.events > 0 ? `Send ${events(Math.min(count.data.events, count.data.batch))}` : "Send"}
          </Button>
        </div>
      </Dialog>
    </section>
  );
}
