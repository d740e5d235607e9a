"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import type { z } from "zod";
import { Button } from "@/app/ui/button";
import { Field } from "@/app/ui/field";
import { ErrorState, Loading, messageOf } from "@/app/ui/states";
import { type EventType, eventTypes } from "@/db/schema/event-types";
import { webhookAddress, webhookChangesSchema, webhookSettingsSchema } from "@/server/webhooks/settings-schema";
import { settingsApi } from "../settings-api";
import { eventTypeLabels } from "./event-type-labels";
import { type InterviewChoice, InterviewPicker } from "./interview-picker";
import { refreshWebhookViews, webhookQueries } from "./webhook-queries";

type SaveRequest = { create: z.output<ReturnType<typeof webhookSettingsSchema>> } | { id: string; changes: z.output<ReturnType<typeof webhookChangesSchema>> };

type Settings = { url: string; eventTypes: EventType[]; interviews: InterviewChoice[] | null };

const blank: Settings = { url: "", eventTypes: [...eventTypes], interviews: null };

const sameMembers = (a: string[], b: string[]) => a.length === b.length && a.every((item) => b.includes(item));

function changedSettings(initial: Settings, entered: { url: string; eventTypes: EventType[]; interviewIds: string[] | null }) {
  const initialIds = initial.interviews?.map((interview) => interview.id) ?? null;
  const sameInterviews =
    initialIds === null || entered.interviewIds === null ? initialIds === entered.interviewIds : sameMembers(initialIds, entered.interviewIds);
  return {
    ...(entered.url.trim() !== initial.url ? { url: entered.url } : {}),
    ...(sameMembers(initial.eventTypes, entered.eventTypes) ? {} : { eventTypes: entered.eventTypes }),
    ...(sameInterviews ? {} : { interviewIds: entered.interviewIds }),
  };
}

/** Create (no `webhookId`) or edit a webhook. `allowTargets` mirrors the server's WEBHOOK_ALLOW_TARGETS. */
export function WebhookForm({ webhookId, allowTargets }: { webhookId?: string; allowTargets: readonly string[] }) {
  const existing = useQuery({
    queryKey: webhookQueries.one(webhookId ?? ""),
    queryFn: () => settingsApi.webhooks.get.query({ id: webhookId! }),
    enabled: webhookId !== undefined,
  });
  if (webhookId === undefined) return <SettingsForm initial={blank} allowTargets={allowTargets} />;
  if (existing.isPending) return <Loading label="Loading the webhook…" />;
  if (existing.isError) return <ErrorState error={existing.error} onRetry={() => existing.refetch()} />;
  const { webhook } = existing.data;
  return (
    <SettingsForm
      webhookId={webhookId}
      initial={{ url: webhook.address, eventTypes: webhook.eventTypes, interviews: webhook.interviews }}
      allowTargets={allowTargets}
    />
  );
}

function SettingsForm({ webhookId, initial, allowTargets }: { webhookId?: string; initial: Settings; allowTargets: readonly string[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [settings, setSettings] = useState(initial);
  const [touched, setTouched] = useState(false);
  const [problems, setProblems] = useState<Partial<Record<"url" | "eventTypes" | "interviewIds", string>>>({});

  const addressCheck = webhookAddress(allowTargets).safeParse(settings.url);
  const addressProblem = touched && settings.url !== "" && !addressCheck.success ? addressCheck.error.issues[0]!.message : problems.url;

  const save = useMutation({
    mutationFn: async (request: SaveRequest) => {
      if ("create" in request) return (await settingsApi.webhooks.create.mutate(request.create)).id;
      await settingsApi.webhooks.update.mutate({ id: request.id, changes: request.changes });
      return request.id;
    },
    onSuccess: async (id) => {
      await refreshWebhookViews(queryClient, id);
      router.push(`/settings/webhooks/${id}`);
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    const entered = {
      url: settings.url,
      eventTypes: settings.eventTypes,
      interviewIds: settings.interviews?.map((interview) => interview.id) ?? null,
    };
    if (webhookId === undefined) {
      const parsed = webhookSettingsSchema(allowTargets).safeParse(entered);
      if (accepted(parsed)) save.mutate({ create: parsed.data });
    } else {
      // Only what changed is sent, so a setting nobody touched is never refused again.
      const parsed = webhookChangesSchema(allowTargets).safeParse(changedSettings(initial, entered));
      if (accepted(parsed)) save.mutate({ id: webhookId, changes: parsed.data });
    }
  }

  function accepted<T>(parsed: z.ZodSafeParseResult<T>): parsed is z.ZodSafeParseSuccess<T> {
    setProblems(parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message])));
    return parsed.success;
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
            <input
              type="radio"
              name="scope"
              checked={settings.interviews !== null}
              onChange={() => setSettings({ ...settings, interviews: settings.interviews ?? [] })}
            />
            Only the interviews I choose
          </label>
        </div>
        {settings.interviews !== null && <InterviewPicker chosen={settings.interviews} onChange={(interviews) => setSettings({ ...settings, interviews })} />}
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
