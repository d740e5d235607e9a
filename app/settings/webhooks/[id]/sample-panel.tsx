"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useDeferredValue, useId, useState } from "react";
import { Button } from "@/app/ui/button";
import { inputClass } from "@/app/ui/field";
import { ErrorState, messageOf } from "@/app/ui/states";
import { eventTypes } from "@/db/schema/event-types";
import { sendSampleInput } from "@/server/settings/webhooks/send-sample.types";
import { useSettingsApi } from "../../settings-api";
import { eventTypeLabels } from "../event-type-labels";
import { useRefreshWebhookViews } from "../webhook-queries";
import { MessageOutcome } from "./message-outcome";

/** Sends an event of a chosen type about a made-up candidate (`test: true`) for a chosen interview, and shows how the address answered. */
/** `hasConditions`: the webhook narrows its events; a sample goes all the same, and the panel says so. */
export function SamplePanel({ webhookId, enabled, hasConditions }: { webhookId: string; enabled: boolean; hasConditions: boolean }) {
  const api = useSettingsApi();
  const refreshWebhookViews = useRefreshWebhookViews();
  const [problem, setProblem] = useState<string | null>(null);
  const [search, setSearch] = useState("");
  const fieldId = useId();
  const query = useDeferredValue(search);
  const interviews = useQuery(api.webhooks.searchInterviews.queryOptions({ query }, { placeholderData: (previous) => previous }));
  const send = useMutation(api.webhooks.sendSample.mutationOptions({ onSuccess: () => refreshWebhookViews(webhookId) }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = sendSampleInput.safeParse({ id: webhookId, interviewId: form.get("interviewId") ?? "", eventType: form.get("eventType") });
    if (!parsed.success) return setProblem(parsed.error.issues[0]!.message);
    setProblem(null);
    send.mutate({ id: webhookId, interviewId: parsed.data.interviewId, eventType: parsed.data.eventType });
  }

  return (
    <section aria-labelledby="sample-title" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="sample-title" className="font-semibold">
        Send a sample
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        An event about a made-up candidate with the interview&apos;s real questions, marked <code>&quot;test&quot;: true</code>, its fields in the order of real
        deliveries.
      </p>
      <p className="mt-1 text-sm text-slate-600" data-testid="sample-failure-note">
        A sample that fails is retried like any message (up to 9 tries over about 3 days, but it holds back no other message), and its tries count in the
        success rates, the chart and the failure run that can turn the webhook off.
      </p>
      {hasConditions && (
        <p className="mt-1 text-sm text-slate-600" data-testid="sample-conditions-note">
          This webhook&apos;s conditions do not apply to samples: a sample is always sent, whatever its status or score.
        </p>
      )}
      {interviews.isError ? (
        <div className="mt-3">
          <ErrorState error={interviews.error} onRetry={() => interviews.refetch()} />
        </div>
      ) : (
        <form onSubmit={submit} className="mt-3 grid gap-3 sm:grid-cols-2 sm:items-end">
          <label className="text-sm">
            Event type
            <select name="eventType" defaultValue="candidate.ready" className={inputClass}>
              {eventTypes.map((type) => (
                <option key={type} value={type}>
                  {eventTypeLabels[type]} ({type})
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            Find an interview
            <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Title or id" className={inputClass} />
          </label>
          <div className="text-sm">
            <label htmlFor={`${fieldId}-interview`}>Interview</label>
            <select id={`${fieldId}-interview`} name="interviewId" defaultValue="" className={inputClass} aria-busy={interviews.isFetching}>
              <option value="" disabled>
                {interviews.isPending ? "Loading interviews…" : interviews.data?.interviews.length === 0 ? "No interview matches" : "Choose an interview"}
              </option>
              {interviews.data?.interviews.map((interview) => (
                <option key={interview.id} value={interview.id}>
                  {interview.title}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" variant="primary" disabled={!enabled} busy={send.isPending}>
            Send sample
          </Button>
        </form>
      )}
      {!enabled && <p className="mt-2 text-sm text-slate-600">Turn the webhook on to send a sample.</p>}
      {(problem || send.isError) && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {problem ?? messageOf(send.error)}
        </p>
      )}
      {send.data && <MessageOutcome key={send.data.messageId} webhookId={webhookId} messageId={send.data.messageId} />}
    </section>
  );
}
