"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { WebhookStateBadge } from "@/app/ui/badge";
import { Button } from "@/app/ui/button";
import { Dialog } from "@/app/ui/dialog";
import { formatDateTime, formatSuccess } from "@/app/ui/format";
import { ErrorState, Loading } from "@/app/ui/states";
import { describeConditions } from "@/server/webhooks/delivery/conditions";
import { useSettingsApi } from "../../settings-api";
import { useViewer } from "../../settings-providers";
import { eventTypeLabels } from "../event-type-labels";
import { healthSentence } from "../webhook-health-text";
import { isWebhookNotFound, WebhookNotFound } from "../webhook-not-found";
import { followPollMs, leaveListNotice, useRefreshWebhookViews, useSavedWarning } from "../webhook-queries";
import { BackfillPanel } from "./backfill-panel";
import { CustomHeadersPanel } from "./custom-headers-panel";
import { DeliveryChart } from "./delivery-chart";
import { DeliveryLog } from "./delivery-log";
import { SamplePanel } from "./sample-panel";
import { SecretPanel } from "./secret-panel";

const backToList = (
  <Link href="/settings/webhooks" className="text-sm text-indigo-700 hover:underline">
    ← Webhooks
  </Link>
);

const messages = (count: number) => `${count} waiting message${count === 1 ? "" : "s"}`;

export function WebhookDetail({ webhookId }: { webhookId: string }) {
  const viewer = useViewer();
  const api = useSettingsApi();
  /** When past events were last queued: the page then follows them, every 2 s while messages wait (samples and resends are followed by MessageOutcome). */
  const [queuedAt, setQueuedAt] = useState(Number.NEGATIVE_INFINITY);
  const details = useQuery(
    api.webhooks.get.queryOptions(
      { id: webhookId },
      {
        refetchInterval: (query) => ((query.state.data?.webhook.waitingMessages ?? 0) > 0 ? followPollMs(queuedAt, 2_000) : 15_000),
        retry: (failures, error) => !isWebhookNotFound(error) && failures < 1,
      },
    ),
  );
  const savedWarning = useSavedWarning(webhookId);

  if (details.isPending) return <Loading label="Loading the webhook…" />;
  if (details.isError && isWebhookNotFound(details.error)) {
    return (
      <div className="space-y-6">
        {backToList}
        <WebhookNotFound />
      </div>
    );
  }
  if (details.isError) return <ErrorState error={details.error} onRetry={() => details.refetch()} />;
  const { webhook } = details.data;
  const enabled = webhook.state !== "off";
  const isAdmin = viewer.role === "admin";

  return (
    <div className="space-y-6">
      {backToList}
      {savedWarning.warning && (
        <div role="alert" className="flex items-start justify-between gap-3 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <p>Saved. {savedWarning.warning}</p>
          <button type="button" className="font-medium underline" onClick={savedWarning.dismiss}>
            Dismiss
          </button>
        </div>
      )}
      <header className="rounded-lg border border-slate-200 bg-white p-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            {webhook.name ? (
              <>
                <h1 className="wrap-anywhere text-lg font-semibold">{webhook.name}</h1>
                <p className="break-all font-mono text-sm text-slate-700" data-testid="webhook-address">
                  {webhook.address}
                </p>
              </>
            ) : (
              <h1 className="break-all font-mono text-lg font-semibold" data-testid="webhook-address">
                {webhook.address}
              </h1>
            )}
            {webhook.description && <p className="mt-2 wrap-anywhere whitespace-pre-line text-sm text-slate-700">{webhook.description}</p>}
            <p className="mt-1 wrap-anywhere text-sm text-slate-600">
              {webhook.eventTypes.map((type) => eventTypeLabels[type]).join(", ")} ·{" "}
              {webhook.interviews === null ? "All interviews" : webhook.interviews.map((interview) => interview.title).join(", ")}
              {webhook.rateLimitPerSecond !== null && ` · At most ${webhook.rateLimitPerSecond.toLocaleString("en-US")} messages a second`}
            </p>
            {describeConditions(webhook.conditions, webhook.eventTypes).map((sentence) => (
              <p key={sentence} className="mt-1 wrap-anywhere text-sm text-slate-700" data-testid="webhook-condition">
                {sentence}
              </p>
            ))}
          </div>
          <WebhookStateBadge state={webhook.state} />
        </div>
        <p
          data-testid="webhook-health"
          className={`mt-2 text-sm ${webhook.state === "failing" ? "text-red-800" : webhook.state === "retrying" ? "text-amber-800" : "text-slate-700"}`}
        >
          {healthSentence(webhook)}
        </p>
        {webhook.heldBackByRateLimit && (
          <p role="status" data-testid="rate-limit-held" className="mt-2 rounded-md bg-sky-50 p-2 text-sm text-sky-900">
            Held back by its rate limit: sending at most {webhook.rateLimitPerSecond?.toLocaleString("en-US")} messages a second, so messages wait their turn,
            in order. Waiting is not a failure.
          </p>
        )}
        <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-5">
          <Figure label="Tries succeeded (24 h)" value={formatSuccess(webhook.successRate24h, webhook.tries24h)} testId="success-24h" />
          <Figure label="Tries succeeded (7 days)" value={formatSuccess(webhook.successRate7d, webhook.tries7d)} testId="success-7d" />
          <Figure label="Last success" value={formatDateTime(webhook.lastSuccessAt)} />
          <Figure label="Last failure" value={formatDateTime(webhook.lastFailureAt)} />
          <Figure label="Messages waiting" value={String(webhook.waitingMessages)} />
        </dl>
        {isAdmin && <AdminActions webhookId={webhookId} label={webhook.name ?? webhook.address} enabled={enabled} waitingMessages={webhook.waitingMessages} />}
      </header>
      <DeliveryChart webhookId={webhookId} />
      {isAdmin && (
        <div className="grid gap-6 lg:grid-cols-2">
          <SamplePanel webhookId={webhookId} enabled={enabled} hasConditions={webhook.conditions !== null} />
          <SecretPanel webhookId={webhookId} previousSecretValidUntil={webhook.previousSecretValidUntil} />
          <BackfillPanel webhookId={webhookId} enabled={enabled} onQueued={() => setQueuedAt(Date.now())} />
          <CustomHeadersPanel webhookId={webhookId} names={webhook.customHeaderNames ?? []} />
        </div>
      )}
      <DeliveryLog webhookId={webhookId} enabled={enabled} />
    </div>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/**
 * Edit, turn off or on, delete. Turning off asks first, with the number of
 * waiting messages it marks failed (refreshed when the question opens), and
 * then says how many it did mark. Deleting confirms on the list it returns to.
 */
function AdminActions({ webhookId, label, enabled, waitingMessages }: { webhookId: string; label: string; enabled: boolean; waitingMessages: number }) {
  const router = useRouter();
  const api = useSettingsApi();
  const queryClient = useQueryClient();
  const refreshWebhookViews = useRefreshWebhookViews();
  const [deleting, setDeleting] = useState(false);
  const [turningOff, setTurningOff] = useState(false);
  const [markedFailed, setMarkedFailed] = useState<number | null>(null);
  const toggle = useMutation(
    api.webhooks.setEnabled.mutationOptions({
      onSuccess: async (result, { enabled: turnedOn }) => {
        setMarkedFailed(turnedOn ? null : result.markedFailed);
        setTurningOff(false);
        await refreshWebhookViews(webhookId);
      },
    }),
  );
  const remove = useMutation(
    api.webhooks.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(api.webhooks.list.queryFilter());
        leaveListNotice(queryClient, `Webhook “${label}” deleted. Nothing more is sent to it, and its delivery log is gone.`);
        router.push("/settings/webhooks");
      },
    }),
  );

  function askToTurnOff() {
    toggle.reset();
    setTurningOff(true);
    void queryClient.invalidateQueries(api.webhooks.get.queryFilter({ id: webhookId }));
  }

  return (
    <div className="mt-4 space-y-3 border-t border-slate-100 pt-4">
      {markedFailed !== null && !enabled && (
        <p role="status" className="rounded-md bg-slate-100 p-3 text-sm text-slate-800">
          The webhook is off.{" "}
          {markedFailed === 0
            ? "No message was waiting, so none was marked failed."
            : `${messages(markedFailed)} ${markedFailed === 1 ? "was" : "were"} marked failed; you can resend ${markedFailed === 1 ? "it" : "them"} from the delivery log once the webhook is on again.`}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Link
          href={`/settings/webhooks/${webhookId}/edit`}
          className="rounded-md bg-white px-3 py-2 text-sm font-medium shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
        >
          Edit
        </Link>
        {enabled ? (
          <Button onClick={askToTurnOff}>Turn off</Button>
        ) : (
          <Button busy={toggle.isPending} onClick={() => toggle.mutate({ id: webhookId, enabled: true })}>
            Turn on
          </Button>
        )}
        <Button variant="danger" onClick={() => setDeleting(true)}>
          Delete
        </Button>
      </div>
      {toggle.isError && !turningOff && <ErrorState error={toggle.error} />}
      <Dialog open={turningOff} title="Turn off this webhook?" onClose={() => setTurningOff(false)}>
        <p className="text-sm text-slate-700" data-testid="turn-off-count">
          No more messages are sent to it until it is turned on again.{" "}
          {waitingMessages === 0
            ? "No message is waiting, so none will be marked failed."
            : `${messages(waitingMessages)} will be marked failed; you can resend ${waitingMessages === 1 ? "it" : "them"} from the delivery log later, once the webhook is on.`}
        </p>
        {toggle.isError && (
          <div className="mt-3">
            <ErrorState error={toggle.error} />
          </div>
        )}
        <div className="mt-6 flex justify-end gap-2">
          <Button onClick={() => setTurningOff(false)}>Keep it on</Button>
          <Button variant="danger" busy={toggle.isPending} onClick={() => toggle.mutate({ id: webhookId, enabled: false })}>
            Turn off
          </Button>
        </div>
      </Dialog>
      <Dialog open={deleting} title="Delete this webhook?" onClose={() => setDeleting(false)}>
        <p className="text-sm text-slate-700">No more messages are sent to it, and its delivery log is deleted. This cannot be undone.</p>
        {remove.isError && (
          <div className="mt-3">
            <ErrorState error={remove.error} />
          </div>
        )}
        <div className="mt-6 flex justify-end gap-2">
          <Button onClick={() => setDeleting(false)}>Keep it</Button>
          <Button variant="danger" busy={remove.isPending} onClick={() => remove.mutate({ id: webhookId })}>
            Delete webhook
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
