"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { eventTypes, type EventType } from "@/db/schema/event-types";
import { webhookAddress, webhookSettingsSchema } from "@/server/webhooks/settings-schema";
import { Button } from "@/app/ui/button";
import { Field } from "@/app/ui/field";
import { ErrorState, Loading, messageOf } from "@/app/ui/states";
import { settingsApi } from "../settings-api";
import { eventTypeLabels } from "./event-type-labels";
import { type InterviewChoice, InterviewPicker } from "./interview-picker";
import { webhooksQuery } from "./webhook-list";

type Settings = { url: string; eventTypes: EventType[]; interviews: InterviewChoice[] | null };

const blank: Settings = { url: "", eventTypes: [...eventTypes], interviews: null };

/** Create (no `webhookId`) or edit a webhook. `allowTargets` mirrors the server's WEBHOOK_ALLOW_TARGETS. */
export function WebhookForm({ webhookId, allowTargets }: { webhookId?: string; allowTargets: string[] }) {
  const existing = useQuery({
    queryKey: ["webhook", webhookId],
    queryFn: () => settingsApi.webhooks.get.query({ id: webhookId! }),
    enabled: webhookId !== undefined,
  });
  if (webhookId === undefined) return <SettingsForm initial={blank} allowTargets={allowTargets} />;
  if (existing.isPending) return <Loading label="Loading the webhook…" />;
  if (existing.isError) return <ErrorState error={existing.error} onRetry={() => existing.refetch()} />;
  const { webhook } = existing.data;
  return <SettingsForm webhookId={webhookId} initial={{ url: webhook.address, eventTypes: webhook.eventTypes, interviews: webhook.interviews }} allowTargets={allowTargets} />;
}

function SettingsForm({ webhookId, initial, allowTargets }: { webhookId?: string; initial: Settings; allowTargets: string[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [settings, setSettings] = useState(initial);
  const [touched, setTouched] = useState(false);
  const [problems, setProblems] = useState<Partial<Record<"url" | "eventTypes" | "interviewIds", string>>>({});

  const addressCheck = webhookAddress(allowTargets).safeParse(settings.url);
  const addressProblem = touched && settings.url !== "" && !addressCheck.success ? addressCheck.error.issues[0]!.message : problems.url;

  const save = useMutation({
    mutationFn: async (input: { url: string; eventTypes: EventType[]; interviewIds: string[] | null }) =>
      webhookId === undefined
        ? (await settingsApi.webhooks.create.mutate(input)).id
        : (await settingsApi.webhooks.update.mutate({ id: webhookId, changes: input }), webhookId),
    onSuccess: async (id) => {
      await queryClient.invalidateQueries({ queryKey: webhooksQuery });
      await queryClient.invalidateQueries({ queryKey: ["webhook", id] });
      router.push(`/settings/webhooks/${id}`);
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    const parsed = webhookSettingsSchema(allowTargets).safeParse({
      url: settings.url,
      eventTypes: settings.eventTypes,
      interviewIds: settings.interviews?.map((interview) => interview.id) ?? null,
    });
    if (!parsed.success) {
      setProblems(Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message])));
      return;
    }
    setProblems({});
    save.mutate(parsed.data);
  }

  const toggleType = (type: EventType) =>
    setSettings((current) => ({
      ...current,
      eventTypes: current.eventTypes.includes(type) ? current.eventTypes.filter((item) => item !== type) : [...current.eventTypes, type],
    }));

  return (
    <form onSubmit={submit} noValidate className="max-w-2xl space-y-6 rounded-lg border border-slate-200 bg-white p-6">
      <Field
        label="Address"
        name="url"
        type="url"
        inputMode="url"
        required
        autoFocus={webhookId === undefined}
        placeholder="https://hooks.example.com/interviews"
        value={settings.url}
        onChange={(event) => {
          setTouched(true);
          setSettings({ ...settings, url: event.target.value });
        }}
        hint="An https:// address on a public host name. We sign every message; see the webhook's page for how to check it."
        problem={addressProblem}
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Events</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {eventTypes.map((type) => (
            <label key={type} className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={settings.eventTypes.includes(type)} onChange={() => toggleType(type)} />
              {eventTypeLabels[type]} <code className="text-xs text-slate-500">{type}</code>
            </label>
          ))}
        </div>
        {problems.eventTypes && <p className="mt-1 text-sm text-red-700">{problems.eventTypes}</p>}
      </fieldset>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Interviews</legend>
        <div className="mt-2 space-y-2 text-sm">
          <label className="flex items-center gap-2">
            <input type="radio" name="scope" checked={settings.interviews === null} onChange={() => setSettings({ ...settings, interviews: null })} />
            All interviews, including ones created later
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="scope" checked={settings.interviews !== null} onChange={() => setSettings({ ...settings, interviews: settings.interviews ?? [] })} />
            Only the interviews I choose
          </label>
        </div>
        {settings.interviews !== null && (
          <InterviewPicker chosen={settings.interviews} onChange={(interviews) => setSettings({ ...settings, interviews })} />
        )}
        {problems.interviewIds && <p className="mt-1 text-sm text-red-700">{problems.interviewIds}</p>}
      </fieldset>
      {save.isError && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {messageOf(save.error)}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button onClick={() => router.back()}>Cancel</Button>
        <Button type="submit" variant="primary" busy={save.isPending}>
          {webhookId === undefined ? "Add webhook" : "Save changes"}
        </Button>
      </div>
    </form>
  );
}
