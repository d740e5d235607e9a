"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Badge } from "@/app/ui/badge";
import { Button } from "@/app/ui/button";
import { CopyButton } from "@/app/ui/copy-button";
import { Dialog } from "@/app/ui/dialog";
import { Field } from "@/app/ui/field";
import { formatDateTime } from "@/app/ui/format";
import { ResponsiveTable } from "@/app/ui/responsive-table";
import { EmptyState, ErrorState, Loading, messageOf } from "@/app/ui/states";
import { createApiKeyInput } from "@/server/settings/api-keys/create-api-key.types";
import { useSettingsApi } from "../settings-api";

export function ApiKeysPanel() {
  const api = useSettingsApi();
  const keys = useQuery(api.apiKeys.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);

  return (
    <section aria-labelledby="api-keys-title">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="api-keys-title" className="text-2xl font-semibold tracking-tight">
            API keys
          </h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">
            A key reads all of your company&apos;s candidate data through the API. Keep keys on a server or in an automation tool, never in a web page or an
            app.
          </p>
        </div>
        <Button variant="primary" onClick={() => setCreating(true)}>
          Create API key
        </Button>
      </div>
      <div className="mt-6">
        {keys.isPending ? (
          <Loading label="Loading API keys…" />
        ) : keys.isError ? (
          <ErrorState error={keys.error} onRetry={() => keys.refetch()} />
        ) : keys.data.keys.length === 0 ? (
          <EmptyState title="No API keys yet">Create one to start reading interviews and candidates through the API.</EmptyState>
        ) : (
          <ResponsiveTable
            rows={keys.data.keys}
            rowKey={(key) => key.id}
            rowTestId="api-key-row"
            cardsBelow="md"
            framed
            columns={[
              {
                label: "Name",
                className: "font-medium md:max-w-xs",
                cell: (key) => <span className="min-w-0 wrap-anywhere max-md:text-right">{key.name}</span>,
              },
              { label: "Key", className: "font-mono text-xs", cell: (key) => `${key.displayPrefix}…` },
              {
                label: "Created",
                cell: (key) => (
                  <span className="max-md:text-right">
                    {formatDateTime(key.createdAt)}
                    {key.createdBy && <span className="block text-xs text-slate-500">by {key.createdBy}</span>}
                  </span>
                ),
              },
              { label: "Last used", cell: (key) => formatDateTime(key.lastUsedAt) },
              {
                label: "State",
                cell: (key) => (
                  <span data-testid="api-key-state">
                    {key.revokedAt ? <Badge tone="slate">Revoked {formatDateTime(key.revokedAt)}</Badge> : <Badge tone="green">Active</Badge>}
                  </span>
                ),
              },
              {
                actions: (key) =>
                  !key.revokedAt && (
                    <Button variant="secondary" onClick={() => setRevoking({ id: key.id, name: key.name })} aria-label={`Revoke ${key.name}`}>
                      Revoke
                    </Button>
                  ),
              },
            ]}
          />
        )}
      </div>
      <CreateKeyDialog open={creating} onClose={() => setCreating(false)} />
      <RevokeKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </section>
  );
}

function CreateKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const api = useSettingsApi();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation(api.apiKeys.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(api.apiKeys.list.queryFilter()) }));

  function close() {
    create.reset();
    setProblem(null);
    onClose();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = createApiKeyInput.safeParse({ name: new FormData(event.currentTarget).get("name") });
    if (!parsed.success) return setProblem(parsed.error.issues[0]!.message);
    setProblem(null);
    create.mutate({ name: parsed.data.name });
  }

  return (
    <Dialog open={open} title={create.data ? "Your new API key" : "Create an API key"} onClose={close}>
      {create.data ? (
        <div className="space-y-4">
          <p role="alert" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
            Copy the key now and store it somewhere safe. It will not be shown again.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <code data-testid="new-api-key" className="min-w-0 flex-1 break-all rounded bg-slate-100 px-3 py-2 font-mono text-sm">
              {create.data.key}
            </code>
            <CopyButton value={create.data.key} label="Copy key" />
          </div>
          <p className="text-sm text-slate-700">
            Next: the{" "}
            <a href="/docs/quick-start" className="text-indigo-700 underline">
              quick start
            </a>{" "}
            calls the API with this key, lists candidates with the TypeScript client and tests a webhook receiver on your machine.
          </p>
          <div className="flex justify-end">
            <Button variant="primary" onClick={close}>
              I have copied it
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          <Field
            label="Name"
            name="name"
            required
            autoFocus
            placeholder="e.g. ATS sync"
            hint="Say who or what will use it, so you know which key to revoke later."
            problem={problem ?? (create.isError ? messageOf(create.error) : null)}
          />
          <div className="flex justify-end gap-2">
            <Button onClick={close}>Cancel</Button>
            <Button type="submit" variant="primary" busy={create.isPending}>
              Create key
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function RevokeKeyDialog({ apiKey, onClose }: { apiKey: { id: string; name: string } | null; onClose: () => void }) {
  const api = useSettingsApi();
  const queryClient = useQueryClient();
  const revoke = useMutation(
    api.apiKeys.revoke.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(api.apiKeys.list.queryFilter());
        close();
      },
    }),
  );

  function close() {
    revoke.reset();
    onClose();
  }

  return (
    <Dialog open={apiKey !== null} title={`Revoke “${apiKey?.name}”?`} onClose={close}>
      <p className="text-sm text-slate-700">Anything using this key stops working on its next request. This cannot be undone; you can create a new key.</p>
      {revoke.isError && (
        <div className="mt-4">
          <ErrorState error={revoke.error} />
        </div>
      )}
      <div className="mt-6 flex justify-end gap-2">
        <Button onClick={close}>Keep the key</Button>
        <Button variant="danger" busy={revoke.isPending} onClick={() => apiKey && revoke.mutate({ id: apiKey.id })}>
          Revoke key
        </Button>
      </div>
    </Dialog>
  );
}
