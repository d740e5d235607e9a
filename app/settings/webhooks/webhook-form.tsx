"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useId, useState } from "react";
import type { z } from "zod";
import { Button } from "@/app/ui/button";
import { Field, inputClass } from "@/app/ui/field";
import { ErrorState, Loading, messageOf } from "@/app/ui/states";
import { type EventType, eventTypes } from "@/db/schema/event-types";
import {
  maxDescriptionLength,
  maxNameLength,
  maxRateLimitPerSecond,
  webhookAddress,
  webhookChangesSchema,
  webhookSettingsSchema,
} from "@/server/webhooks/admin/settings-schema";
import { useSettingsApi, useSettingsClient } from "../settings-api";
import { type ConditionEntry, ConditionFields, conditionEntryOf, enteredConditions } from "./condition-fields";
import { CustomHeaderFields, type HeaderEntry } from "./custom-header-fields";
import { eventTypeLabels } from "./event-type-labels";
import { type InterviewChoice, InterviewPicker } from "./interview-picker";
import { isWebhookNotFound, WebhookNotFound } from "./webhook-not-found";
import { leaveSavedHeaders, leaveSavedWarning, useRefreshWebhookViews } from "./webhook-queries";

type SaveRequest = { create: z.output<ReturnType<typeof webhookSettingsSchema>> } | { id: string; changes: z.output<ReturnType<typeof webhookChangesSchema>> };

type Settings = {
  url: string;
  name: string;
  description: string;
  eventTypes: EventType[];
  interviews: InterviewChoice[] | null;
  customHeaders: HeaderEntry[];
  conditions: ConditionEntry;
  rateLimit: string;
};

type Entered = {
  url: string;
  name: string;
  description: string;
  eventTypes: EventType[];
  interviewIds: string[] | null;
  customHeaders: HeaderEntry[];
  conditions: ReturnType<typeof enteredConditions>;
  rateLimitPerSecond: string;
};

const blank: Settings = {
  url: "",
  name: "",
  description: "",
  eventTypes: [...eventTypes],
  interviews: null,
  customHeaders: [],
  conditions: conditionEntryOf(null),
  rateLimit: "",
};

/** Rows left wholly empty are no header. */
const filledHeaders = (headers: HeaderEntry[]) => headers.filter((header) => header.name.trim() !== "" || header.value !== "");

/** A saved header whose value was not retyped keeps its value (null); a new one must have one. */
const headerChanges = (headers: HeaderEntry[]) =>
  headers.map((header) => ({ name: header.name, value: header.saved && header.value === "" ? null : header.value }));

const headersUnchanged = (initial: HeaderEntry[], entered: HeaderEntry[]) =>
  initial.length === entered.length && entered.every((header, index) => header.saved && header.value === "" && header.name.trim() === initial[index]!.name);

const sameMembers = (a: string[], b: string[]) => a.length === b.length && a.every((item) => b.includes(item));

function changedSettings(initial: Settings, entered: Entered) {
  const initialIds = initial.interviews?.map((interview) => interview.id) ?? null;
  const sameInterviews =
    initialIds === null || entered.interviewIds === null ? initialIds === entered.interviewIds : sameMembers(initialIds, entered.interviewIds);
  return {
    ...(entered.url.trim() !== initial.url ? { url: entered.url } : {}),
    ...(entered.name.trim() !== initial.name ? { name: entered.name } : {}),
    ...(entered.description.trim() !== initial.description ? { description: entered.description } : {}),
    ...(sameMembers(initial.eventTypes, entered.eventTypes) ? {} : { eventTypes: entered.eventTypes }),
    ...(sameInterviews ? {} : { interviewIds: entered.interviewIds }),
    ...(headersUnchanged(initial.customHeaders, entered.customHeaders) ? {} : { customHeaders: headerChanges(entered.customHeaders) }),
    ...(JSON.stringify(enteredConditions(initial.conditions, initial.eventTypes)) === JSON.stringify(entered.conditions)
      ? {}
      : { conditions: entered.conditions }),
    ...(entered.rateLimitPerSecond.trim() !== initial.rateLimit ? { rateLimitPerSecond: entered.rateLimitPerSecond } : {}),
  };
}

/** Create (no `webhookId`) or edit a webhook. `allowTargets` mirrors the server's WEBHOOK_ALLOW_TARGETS. */
export function WebhookForm({ webhookId, allowTargets }: { webhookId?: string; allowTargets: readonly string[] }) {
  const api = useSettingsApi();
  const existing = useQuery(api.webhooks.get.queryOptions({ id: webhookId ?? "" }, { enabled: webhookId !== undefined }));
  if (webhookId === undefined) return <SettingsForm initial={blank} allowTargets={allowTargets} />;
  if (existing.isPending) return <Loading label="Loading the webhook…" />;
  if (existing.isError && isWebhookNotFound(existing.error)) return <WebhookNotFound />;
  if (existing.isError) return <ErrorState error={existing.error} onRetry={() => existing.refetch()} />;
  const { webhook } = existing.data;
  return (
    <SettingsForm
      webhookId={webhookId}
      initial={{
        url: webhook.address,
        name: webhook.name ?? "",
        description: webhook.description ?? "",
        eventTypes: webhook.eventTypes,
        interviews: webhook.interviews,
        customHeaders: (webhook.customHeaderNames ?? []).map((name) => ({ name, value: "", saved: true })),
        conditions: conditionEntryOf(webhook.conditions),
        rateLimit: webhook.rateLimitPerSecond === null ? "" : String(webhook.rateLimitPerSecond),
      }}
      allowTargets={allowTargets}
    />
  );
}

function SettingsForm({ webhookId, initial, allowTargets }: { webhookId?: string; initial: Settings; allowTargets: readonly string[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const settingsClient = useSettingsClient();
  const refreshWebhookViews = useRefreshWebhookViews();
  const [settings, setSettings] = useState(initial);
  const [touched, setTouched] = useState(false);
  const [problems, setProblems] = useState<Partial<Record<keyof Entered, string>>>({});
  const descriptionId = useId();

  const addressCheck = webhookAddress(allowTargets).safeParse(settings.url);
  const addressProblem = touched && settings.url !== "" && !addressCheck.success ? addressCheck.error.issues[0]!.message : problems.url;

  const save = useMutation({
    mutationFn: async (request: SaveRequest) => {
      if ("create" in request) {
        const created = await settingsClient.webhooks.create.mutate(request.create);
        return { ...created, customHeaders: created.customHeaders.length > 0 ? created.customHeaders : null };
      }
      const { addressWarning, customHeaders } = await settingsClient.webhooks.update.mutate({ id: request.id, changes: request.changes });
      return { id: request.id, addressWarning, customHeaders };
    },
    onSuccess: async ({ id, addressWarning, customHeaders }) => {
      leaveSavedWarning(queryClient, id, addressWarning);
      leaveSavedHeaders(queryClient, id, customHeaders);
      await refreshWebhookViews(id);
      router.push(`/settings/webhooks/${id}`);
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    const entered: Entered = {
      url: settings.url,
      name: settings.name,
      description: settings.description,
      eventTypes: settings.eventTypes,
      interviewIds: settings.interviews?.map((interview) => interview.id) ?? null,
      customHeaders: filledHeaders(settings.customHeaders),
      conditions: enteredConditions(settings.conditions, settings.eventTypes),
      rateLimitPerSecond: settings.rateLimit,
    };
    if (webhookId === undefined) {
      const parsed = webhookSettingsSchema(allowTargets).safeParse({ ...entered, customHeaders: headerChanges(entered.customHeaders) });
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
      {pointsAtThisMachine(settings.url) && <ListenHint address={settings.url.trim()} />}
      <Field
        label="Name (optional)"
        name="name"
        maxLength={maxNameLength}
        placeholder="Hiring pipeline sync"
        value={settings.name}
        onChange={(event) => setSettings({ ...settings, name: event.target.value })}
        hint="Shown instead of the address wherever the webhook appears, also to team members."
        problem={problems.name}
      />
      <div>
        <label htmlFor={descriptionId} className="block text-sm font-medium text-slate-800">
          Description (optional)
        </label>
        <textarea
          id={descriptionId}
          name="description"
          rows={2}
          maxLength={maxDescriptionLength}
          aria-invalid={problems.description ? true : undefined}
          className={inputClass}
          placeholder="What receives these messages, and who to ask about it."
          value={settings.description}
          onChange={(event) => setSettings({ ...settings, description: event.target.value })}
        />
        {problems.description && <p className="mt-1 text-sm text-red-700">{problems.description}</p>}
      </div>
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
      <ConditionFields
        entry={settings.conditions}
        eventTypes={settings.eventTypes}
        onChange={(conditions) => setSettings({ ...settings, conditions })}
        problem={problems.conditions}
      />
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
      <CustomHeaderFields
        headers={settings.customHeaders}
        onChange={(customHeaders) => setSettings({ ...settings, customHeaders })}
        problem={problems.customHeaders}
      />
      <Field
        label="Rate limit (optional)"
        name="rateLimit"
        inputMode="numeric"
        placeholder="No limit"
        value={settings.rateLimit}
        onChange={(event) => setSettings({ ...settings, rateLimit: event.target.value })}
        hint={`At most this many messages a second, 1 to ${maxRateLimitPerSecond.toLocaleString("en-US")}, for a receiver that cannot take bursts (an automation tool on a small plan, a resend of many messages). Messages wait for it in order; waiting is never a failure. Empty: no limit.`}
        problem={problems.rateLimitPerSecond}
      />
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

/** An address only a laptop can answer: plain http, or this machine's own names. */
function pointsAtThisMachine(entered: string): boolean {
  const value = entered.trim().toLowerCase();
  if (value.startsWith("http://")) return true;
  // Typed without a scheme ("localhost:4000/hook"), the host is what comes before the first colon or slash.
  const host = value.includes("://") && URL.canParse(value) ? new URL(value).hostname : (value.split(/[/:]/)[0] ?? "");
  return /(^|\.)localhost\.?$/.test(host) || host.startsWith("127.") || host === "[::1]";
}

/** Webhooks cannot reach a developer's machine; `listen` can, so say so where they try. */
function ListenHint({ address }: { address: string }) {
  const forwardTo = URL.canParse(address) ? address : "http://localhost:4000/webhooks";
  return (
    <div role="note" className="-mt-3 rounded-md bg-indigo-50 p-3 text-sm text-indigo-950">
      <p>
        Testing a receiver on your own machine? Webhooks go only to public https:// addresses, but <code>listen</code> sends your company&apos;s events there,
        signed like a webhook:
      </p>
      <code className="mt-2 block break-all rounded bg-white px-2 py-1 font-mono text-xs">
        npx interview-api listen --api-url {"<API address>"} --api-key {"<key>"} --forward-to {forwardTo}
      </code>
      <p className="mt-2">
        See{" "}
        <a href="/docs/quick-start#listen" className="text-indigo-700 underline">
          the quick start
        </a>
        .
      </p>
    </div>
  );
}
