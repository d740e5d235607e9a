"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { WebhookStateBadge } from "@/app/ui/badge";
import { Button } from "@/app/ui/button";
import { Dialog } from "@/app/ui/dialog";
import { formatDateTime, formatRate } from "@/app/ui/format";
import { ErrorState, Loading } from "@/app/ui/states";
import { disableAfter } from "@/server/webhooks/failure-thresholds";
import { settingsApi } from "../../settings-api";
import { useViewer } from "../../settings-providers";
import { eventTypeLabels } from "../event-type-labels";
import { refreshWebhookViews, webhookQueries } from "../webhook-queries";
import { DeliveryChart } from "./delivery-chart";
import { DeliveryLog } from "./delivery-log";
import { SamplePanel } from "./sample-panel";
import { SecretPanel } from "./secret-panel";

export function WebhookDetail({ webhookId }: { webhookId: string }) {
  const viewer = useViewer();
  const details = useQuery({
    queryKey: webhookQueries.one(webhookId),
    queryFn: () => settingsApi.webhooks.get.query({ id: webhookId }),
    refetchInterval: 15_000,
  });

  if (details.isPending) return <Loading label="Loading the webhook…" />;
  if (details.isError) return <ErrorState error={details.error} onRetry={() => details.refetch()} />;
  const { webhook } = details.data;
  const enabled = webhook.state !== "disabled";
  const isAdmin = viewer.role === "admin";

  return (
    <div className="space-y-6">
      <Link href="/settings/webhooks" className="text-sm text-indigo-700 hover:underline">
        ← Webhooks
      </Link>
      <header className="rounded-lg border border-slate-200 bg-white p-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h1 className="break-all font-mono text-lg font-semibold" data-testid="webhook-address">
              {webhook.address}
            </h1>
            <p className="mt-1 text-sm text-slate-600">
              {webhook.eventTypes.map((type) => eventTypeLabels[type]).join(", ")} ·{" "}
              {webhook.interviews === null ? "All interviews" : webhook.interviews.map((interview) => interview.title).join(", ")}
            </p>
          </div>
          <WebhookStateBadge state={webhook.state} />
        </div>
        {webhook.disabledReason && <p className="mt-2 text-sm text-slate-700">This webhook is off. {webhook.disabledReason}.</p>}
        {webhook.failingSince && enabled && (
          <p className="mt-2 text-sm text-amber-800">
            Failing since {formatDateTime(webhook.failingSince)}. After {disableAfter} without a success it is turned off.
          </p>
        )}
        <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-5">
          <Figure label="Success (24 h)" value={formatRate(webhook.successRate24h)} />
          <Figure label="Success (7 days)" value={formatRate(webhook.successRate7d)} />
          <Figure label="Last success" value={formatDateTime(webhook.lastSuccessAt)} />
          <Figure label="Last failure" value={formatDateTime(webhook.lastFailureAt)} />
          <Figure label="Waiting" value={String(webhook.waitingMessages)} />
        </dl>
        {isAdmin && <AdminActions webhookId={webhookId} enabled={enabled} />}
      </header>
      <DeliveryChart webhookId={webhookId} />
      {isAdmin && (
        <div className="grid gap-6 lg:grid-cols-2">
          <SamplePanel webhookId={webhookId} enabled={enabled} />
          <SecretPanel webhookId={webhookId} previousSecretValidUntil={webhook.previousSecretValidUntil} />
        </div>
      )}
      <DeliveryLog webhookId={webhookId} enabled={enabled} />
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium">{value}</dd>
    </div>
  );
}

function AdminActions({ webhookId, enabled }: { webhookId: string; enabled: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  const toggle = useMutation({
    mutationFn: () => settingsApi.webhooks.setEnabled.mutate({ id: webhookId, enabled: !enabled }),
    onSuccess: () => refreshWebhookViews(queryClient, webhookId),
  });
  const remove = useMutation({
    mutationFn: () => settingsApi.webhooks.delete.mutate({ id: webhookId }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhookQueries.list });
      router.push("/settings/webhooks");
    },
  });

  return (
    <div className="mt-4 flex flex-wrap gap-2 border-t border-slate-100 pt-4">
      <Link
        href={`/settings/webhooks/${webhookId}/edit`}
        className="rounded-md bg-white px-3 py-2 text-sm font-medium shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
      >
        Edit
      </Link>
      <Button busy={toggle.isPending} onClick={() => toggle.mutate()}>
        {enabled ? "Turn off" : "Turn on"}
      </Button>
      <Button variant="danger" onClick={() => setDeleting(true)}>
        Delete
      </Button>
      {toggle.isError && <ErrorState error={toggle.error} />}
      <Dialog open={deleting} title="Delete this webhook?" onClose={() => setDeleting(false)}>
        <p className="text-sm text-slate-700">No more messages are sent to it, and its delivery log is deleted. This cannot be undone.</p>
        {remove.isError && (
          <div className="mt-3">
            <ErrorState error={remove.error} />
          </div>
        )}
        <div className="mt-6 flex justify-end gap-2">
          <Button onClick={() => setDeleting(false)}>Keep it</Button>
          <Button variant="danger" busy={remove.isPending} onClick={() => remove.mutate()}>
            Delete webhook
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
