"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { Button } from "@/app/ui/button";
import { CopyButton } from "@/app/ui/copy-button";
import { ErrorState } from "@/app/ui/states";
import { maskedHeaderValue } from "@/server/webhooks/delivery/header-rules";
import { useSettingsApi } from "../../settings-api";
import { useSavedHeaders } from "../webhook-queries";

/**
 * The admin's own headers: names with masked values, revealed on request.
 * Straight after a save that changed them, the values are shown once, from
 * the save's answer; the page shows them masked again once dismissed or loaded afresh.
 */
export function CustomHeadersPanel({ webhookId, names }: { webhookId: string; names: string[] }) {
  const saved = useSavedHeaders(webhookId);
  const api = useSettingsApi();
  const reveal = useMutation(api.webhooks.revealHeaders.mutationOptions());
  const shown = saved.headers ?? reveal.data?.customHeaders ?? null;
  const rows = shown ?? names.map((name) => ({ name, value: maskedHeaderValue }));

  return (
    <section aria-labelledby="custom-headers-title" className="min-w-0 rounded-lg border border-slate-200 bg-white p-4" data-testid="custom-headers-panel">
      <h2 id="custom-headers-title" className="font-semibold">
        Custom headers
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Sent with every message, retries, resends, samples and past events included. The delivery log shows their values masked; team members never see them.
      </p>
      {saved.headers && (
        <div role="status" className="mt-3 flex items-start justify-between gap-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
          <p>Saved. The values are shown this once; afterwards they are masked, and you can reveal them again here.</p>
          <button type="button" className="font-medium underline" onClick={saved.dismiss}>
            Hide
          </button>
        </div>
      )}
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">None. Receivers that check a header of their own can be given one on the edit page.</p>
      ) : (
        <dl className="mt-3 space-y-2 text-sm">
          {rows.map(({ name, value }) => (
            <div key={name} className="flex flex-wrap items-center gap-2" data-testid="custom-header">
              <dt className="font-mono font-medium">{name}:</dt>
              <dd className="min-w-0 flex-1 break-all rounded bg-slate-100 px-2 py-1 font-mono" data-testid="custom-header-value">
                {value}
              </dd>
              {shown && <CopyButton value={value} label={`Copy ${name}`} />}
            </div>
          ))}
        </dl>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        {rows.length > 0 && !shown && (
          <Button busy={reveal.isPending} onClick={() => reveal.mutate({ id: webhookId })}>
            Reveal values
          </Button>
        )}
        {shown && !saved.headers && <Button onClick={() => reveal.reset()}>Hide values</Button>}
        <Link
          href={`/settings/webhooks/${webhookId}/edit`}
          className="rounded-md bg-white px-3 py-2 text-sm font-medium shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
        >
          {rows.length === 0 ? "Add a header" : "Change headers"}
        </Link>
      </div>
      {reveal.isError && (
        <div className="mt-3">
          <ErrorState error={reveal.error} />
        </div>
      )}
    </section>
  );
}
