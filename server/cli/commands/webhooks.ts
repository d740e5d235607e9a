import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { eventTypes, webhookMessages, webhooks } from "@/db/schema";
import type { DomainContext } from "@/server/domain/context";
import { notFound } from "@/server/domain/errors";
import { listWebhooks } from "@/server/webhooks/admin/find-webhook";
import { resendMessage } from "@/server/webhooks/admin/resend";
import { sendSample } from "@/server/webhooks/admin/send-sample";
import { setWebhookEnabled } from "@/server/webhooks/admin/set-webhook-enabled";
import { rotateWebhookSecret } from "@/server/webhooks/admin/webhook-secret";
import { createWebhook, updateWebhook } from "@/server/webhooks/admin/webhook-settings";
import type { WebhookConditions } from "@/server/webhooks/delivery/conditions";
import { decryptHeaders } from "@/server/webhooks/delivery/custom-headers";
import { webhookHealth } from "@/server/webhooks/views/health";
import { type Command, type Flags, positional, required, requiredText, text, UsageError } from "../arguments";

/** The CLI acts as the operator: it finds the company from the webhook or message. */
async function companyOfWebhook(ctx: DomainContext, webhookId: string) {
  const [row] = await ctx.db.select({ companyId: webhooks.companyId }).from(webhooks).where(eq(webhooks.id, webhookId));
  if (!row) throw notFound("webhook", webhookId);
  return row.companyId;
}

function listFlag(value: unknown, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new UsageError(`--${name} takes a comma-separated list`);
  return value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A text option given without a value is refused; an empty one clears the setting. */
function textFlag(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new UsageError(`--${name} takes a value (an empty one clears it)`);
  return value;
}

function eventsFlag(value: unknown, name = "events") {
  const list = listFlag(value, name);
  const unknown = list?.filter((item) => !eventTypes.includes(item as never));
  if (unknown?.length) throw new UsageError(`--${name} has unknown types: ${unknown.join(", ")} (use ${eventTypes.join(", ")})`);
  return list as (typeof eventTypes)[number][] | undefined;
}

/** `--interviews all` (or no flag on create) means every interview, including later ones. */
function interviewsFlag(value: unknown): string[] | null | undefined {
  if (value === "all") return null;
  return listFlag(value, "interviews");
}

/**
 * `--headers-file`: one `Name: value` per line; the values stay out of the
 * shell's history and the process list. The file gives the whole list (an
 * empty one removes every header); the rules are the settings pages'.
 */
function headersFileFlag(value: unknown) {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") throw new UsageError("--headers-file takes a file of `Name: value` lines");
  let content: string;
  try {
    content = readFileSync(value, "utf8");
  } catch {
    throw new UsageError(`--headers-file: cannot read ${value}`);
  }
  return content
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const colon = line.indexOf(":");
      if (colon < 0) throw new UsageError("--headers-file: each line is `Name: value`");
      return { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
    });
}

/** The condition flags over the webhook's current conditions: each one given replaces its part, an empty one removes it. */
function conditionsFlags(flags: Flags, current: WebhookConditions | null): WebhookConditions | null | undefined {
  const given = ["status-to", "min-score", "recommendations"].filter((name) => flags[name] !== undefined);
  if (given.length === 0) return undefined;
  const next: Record<string, unknown> = { ...current };
  const set = (key: keyof WebhookConditions, value: unknown) => {
    if (value === undefined || (Array.isArray(value) && value.length === 0) || value === "") delete next[key];
    else next[key] = value;
  };
  if (flags["status-to"] !== undefined) set("statusTo", listFlag(flags["status-to"], "status-to"));
  if (flags.recommendations !== undefined) set("recommendations", listFlag(flags.recommendations, "recommendations"));
  if (flags["min-score"] !== undefined) {
    const value = textFlag(flags["min-score"], "min-score")!.trim();
    if (value !== "" && !/^\d+$/.test(value)) throw new UsageError(`--min-score takes a whole number from 0 to 100, got ${value}`);
    set("minScore", value === "" ? undefined : Number(value));
  }
  return Object.keys(next).length === 0 ? null : (next as WebhookConditions);
}

/** `none` or empty: no limit; anything else goes to the settings schema as given, which says what is wrong with it. */
function rateLimitFlag(value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  return value === "none" ? null : String(value);
}

const eventsOption = text("a,b", `event types to send, comma-separated (${eventTypes.join(", ")}); all when not given on create`);
const nameOption = text("NAME", "a short name shown wherever the webhook appears (empty clears it)");
const descriptionOption = text("TEXT", "a note on what the webhook is for (empty clears it)");
const rateLimitOption = text("N|none", "at most N messages a second (1 to 1000) for a receiver that cannot take bursts; none (or empty) for no limit");
const interviewsOption = text("id,id|all", "interview ids to send events of, or all (also later ones); all when not given on create");
const headersOption = text("FILE", "custom headers sent with every message: a file of `Name: value` lines (at most 5; an empty file removes them)");
const statusToOption = text("a,b", "send candidate.status_changed only when the new status is one of these (empty: every status)");
const minScoreOption = text("N", "send candidate.scored and candidate.ready only when the score is at least N, 0-100 (empty: no lowest score)");
const recommendationsOption = text("a,b", "or when the recommendation is one of these (empty: no recommendation condition)");

export const webhookCommands: Record<string, Command> = {
  "webhook create": {
    summary: "Creates a webhook and prints its signing secret.",
    options: {
      company: requiredText("ID", "the webhook's company"),
      url: requiredText("URL", "the https address to deliver to"),
      name: nameOption,
      description: descriptionOption,
      events: eventsOption,
      interviews: interviewsOption,
      "headers-file": headersOption,
      "status-to": statusToOption,
      "min-score": minScoreOption,
      recommendations: recommendationsOption,
      "rate-limit": rateLimitOption,
    },
    run: async ({ ctx, webhookAddresses }, flags) => {
      const settings = {
        url: required(flags, "url"),
        name: textFlag(flags.name, "name") ?? null,
        description: textFlag(flags.description, "description") ?? null,
        eventTypes: eventsFlag(flags.events),
        interviewIds: interviewsFlag(flags.interviews) ?? null,
        customHeaders: headersFileFlag(flags["headers-file"]) ?? [],
        conditions: conditionsFlags(flags, null) ?? null,
        rateLimitPerSecond: rateLimitFlag(flags["rate-limit"]) ?? null,
      };
      const { id, secret, customHeaders, addressWarning } = await createWebhook(ctx, required(flags, "company"), settings, webhookAddresses);
      // The header values came from the operator's own file: only their names are printed.
      const headerNames = customHeaders.map((header) => header.name);
      return {
        json: { id, secret, custom_headers: headerNames, address_warning: addressWarning },
        text: [
          `Created webhook ${id}`,
          `Signing secret: ${secret}`,
          ...(headerNames.length > 0 ? [`Custom headers: ${headerNames.join(", ")}`] : []),
          ...(addressWarning ? [`Warning: ${addressWarning}`] : []),
        ].join("\n"),
      };
    },
  },
  "webhook update": {
    summary: "Changes a webhook's address, name, description, event types, interviews, custom headers, conditions or rate limit; what is not given stays.",
    argument: "ID",
    options: {
      url: text("URL", "the new https address"),
      name: nameOption,
      description: descriptionOption,
      events: eventsOption,
      interviews: interviewsOption,
      "headers-file": headersOption,
      "status-to": statusToOption,
      "min-score": minScoreOption,
      recommendations: recommendationsOption,
      "rate-limit": rateLimitOption,
    },
    run: async ({ ctx, webhookAddresses }, flags, args) => {
      const id = positional(args, "ID");
      const [current] = await ctx.db.select({ conditions: webhooks.conditions }).from(webhooks).where(eq(webhooks.id, id));
      const headers = headersFileFlag(flags["headers-file"]);
      const conditions = conditionsFlags(flags, current?.conditions ?? null);
      const changes = {
        ...(headers !== undefined ? { customHeaders: headers } : {}),
        ...(conditions !== undefined ? { conditions } : {}),
        ...(flags.url !== undefined ? { url: required(flags, "url") } : {}),
        ...(flags.name !== undefined ? { name: textFlag(flags.name, "name") } : {}),
        ...(flags.description !== undefined ? { description: textFlag(flags.description, "description") } : {}),
        ...(flags.events !== undefined ? { eventTypes: eventsFlag(flags.events) } : {}),
        ...(flags.interviews !== undefined ? { interviewIds: interviewsFlag(flags.interviews) } : {}),
        ...(flags["rate-limit"] !== undefined ? { rateLimitPerSecond: rateLimitFlag(flags["rate-limit"]) } : {}),
      };
      const { addressWarning } = await updateWebhook(ctx, await companyOfWebhook(ctx, id), id, changes, webhookAddresses);
      return {
        json: { id, updated: true, address_warning: addressWarning },
        text: [`Updated webhook ${id}`, ...(addressWarning ? [`Warning: ${addressWarning}`] : [])].join("\n"),
      };
    },
  },
  "webhook enable": {
    summary: "Turns a webhook on; it receives events from then on.",
    argument: "ID",
    options: {},
    run: async ({ ctx }, _flags, args) => {
      const id = positional(args, "ID");
      await setWebhookEnabled(ctx, await companyOfWebhook(ctx, id), id, true);
      return { json: { id, enabled: true }, text: `Webhook ${id} is on` };
    },
  },
  "webhook disable": {
    summary: "Turns a webhook off; its waiting messages are marked failed.",
    argument: "ID",
    options: {},
    run: async ({ ctx }, _flags, args) => {
      const id = positional(args, "ID");
      const { markedFailed } = await setWebhookEnabled(ctx, await companyOfWebhook(ctx, id), id, false, "the operator");
      return {
        json: { id, enabled: false, marked_failed: markedFailed },
        text: `Webhook ${id} is off; ${markedFailed} waiting message${markedFailed === 1 ? " was" : "s were"} marked failed (they can be resent once it is on)`,
      };
    },
  },
  "webhook rotate-secret": {
    summary: "Replaces a webhook's signing secret; the previous one keeps signing for 24 hours.",
    argument: "ID",
    options: {},
    run: async ({ ctx }, _flags, args) => {
      const id = positional(args, "ID");
      const { secret, previousValidUntil } = await rotateWebhookSecret(ctx, await companyOfWebhook(ctx, id), id);
      return {
        json: { secret, previous_valid_until: previousValidUntil?.toISOString() ?? null },
        text: `New signing secret: ${secret}\n${
          previousValidUntil
            ? `The previous one keeps signing until ${previousValidUntil.toISOString()}`
            : "The previous one could not be decrypted with this APP_SECRET, so it signs nothing more"
        }`,
      };
    },
  },
  "webhook resend": {
    summary: "Sends a message's event again, as a new message with current data.",
    argument: "MESSAGE_ID",
    options: {},
    run: async ({ ctx }, _flags, args) => {
      const messageId = positional(args, "MESSAGE_ID");
      const [message] = await ctx.db.select({ companyId: webhookMessages.companyId }).from(webhookMessages).where(eq(webhookMessages.id, messageId));
      if (!message) throw notFound("message", messageId);
      const { id } = await resendMessage(ctx, message.companyId, messageId);
      return { json: { message_id: id }, text: `Queued message ${id}` };
    },
  },
  "webhook sample": {
    summary: "Sends a sample event (test: true) to a webhook.",
    options: {
      webhook: requiredText("ID", "the webhook to send to"),
      interview: requiredText("ID", "the interview whose questions the sample answers"),
      type: text("TYPE", `the event type (${eventTypes.join(", ")}); candidate.ready when not given`),
    },
    run: async ({ ctx }, flags) => {
      const webhookId = required(flags, "webhook");
      const type = eventsFlag(flags.type, "type");
      if (type && type.length !== 1) throw new UsageError("--type takes one event type.");
      const company = await companyOfWebhook(ctx, webhookId);
      const { messageId, eventId } = await sendSample(ctx, company, webhookId, required(flags, "interview"), type?.[0]);
      return { json: { message_id: messageId, event_id: eventId }, text: `Queued sample message ${messageId}` };
    },
  },
  "webhook list": {
    summary: "Lists a company's webhooks with their health.",
    options: { company: requiredText("ID", "the company") },
    run: async ({ ctx, sql }, flags) => {
      const companyId = required(flags, "company");
      const list = await listWebhooks(ctx, companyId);
      const health = await webhookHealth(
        sql,
        companyId,
        list.map((webhook) => webhook.id),
        ctx.clock.now(),
      );
      const rows = list.map((webhook) => ({
        id: webhook.id,
        name: webhook.name,
        description: webhook.description,
        url: webhook.url,
        event_types: webhook.eventTypes,
        interviews: webhook.allInterviews ? "all" : webhook.interviewIds,
        custom_headers: decryptHeaders(webhook.customHeadersCiphertext).map((header) => header.name),
        conditions: webhook.conditions,
        rate_limit_per_second: webhook.rateLimitPerSecond,
        enabled: webhook.enabled,
        disabled_reason: webhook.disabledReason,
        health: health.get(webhook.id) ?? null,
      }));
      return {
        json: { webhooks: rows },
        text:
          rows
            .map((row) => [row.id, row.enabled ? "on " : "off", row.health?.state ?? "", ...(row.name ? [JSON.stringify(row.name)] : []), row.url].join("  "))
            .join("\n") || "No webhooks",
      };
    },
  },
};
