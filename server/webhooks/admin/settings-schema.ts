/**
 * Webhook settings as an admin enters them. The settings form and the server
 * parse with the same schemas; nothing here needs Node, so the form imports it.
 */
import { z } from "zod";
import { eventTypes } from "@/db/schema/event-types";
import { webhookConditionsSchema } from "../delivery/conditions";
import { customHeaderChangesSchema, customHeadersSchema } from "../delivery/header-rules";
import { checkWebhookAddress } from "./address";

export const maxWebhooksPerCompany = 10;

/** `allowTargets`: the exact host:port pairs WEBHOOK_ALLOW_TARGETS lets through. */
export const webhookAddress = (allowTargets: readonly string[]) =>
  z
    .string()
    .trim()
    .min(1, "Enter the address messages are sent to.")
    .superRefine((value, issues) => {
      const check = checkWebhookAddress(value, allowTargets);
      if (!check.ok) issues.addIssue({ code: "custom", message: `The address ${check.problem}.` });
    });

export const webhookEventTypes = z.array(z.enum(eventTypes)).min(1, "Choose at least one event type.");

export const maxNameLength = 80;
export const maxDescriptionLength = 500;

/** Optional text an admin gives: trimmed; empty (or null) clears it. */
const optionalText = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .nullable()
    .transform((value) => value || null);

/** A short label shown wherever the webhook is, to members too. */
export const webhookName = optionalText(maxNameLength, `The name can be at most ${maxNameLength} characters.`);
export const webhookDescription = optionalText(maxDescriptionLength, `The description can be at most ${maxDescriptionLength} characters.`);

export const maxChosenInterviews = 200;

/** null: all interviews, including ones created later. */
export const webhookInterviewIds = z
  .array(z.string().min(1))
  .min(1, "Choose at least one interview, or all interviews.")
  .max(maxChosenInterviews, `Choose at most ${maxChosenInterviews} interviews, or all interviews.`)
  .transform((ids) => [...new Set(ids)])
  .nullable();

export const maxRateLimitPerSecond = 1000;
const rateLimitProblem = `The rate limit is a whole number of messages a second from 1 to ${maxRateLimitPerSecond.toLocaleString("en-US")}, or empty for no limit.`;

/**
 * At most this many messages a second, for a receiver that cannot take
 * bursts; null (or empty): no limit. The form and the CLI give text, the
 * API of the settings a number.
 */
export const webhookRateLimit = z.preprocess(
  (value) => (typeof value === "string" ? (value.trim() === "" ? null : /^\s*\d+\s*$/.test(value) ? Number(value) : value) : value),
  z.number({ error: rateLimitProblem }).int(rateLimitProblem).min(1, rateLimitProblem).max(maxRateLimitPerSecond, rateLimitProblem).nullable(),
);

/** Creating: every event type and every interview unless chosen. */
export const webhookSettingsSchema = (allowTargets: readonly string[]) =>
  z.object({
    url: webhookAddress(allowTargets),
    name: webhookName.default(null),
    description: webhookDescription.default(null),
    eventTypes: webhookEventTypes.default([...eventTypes]),
    interviewIds: webhookInterviewIds.default(null),
    customHeaders: customHeadersSchema.default([]),
    conditions: webhookConditionsSchema.default(null),
    rateLimitPerSecond: webhookRateLimit.default(null),
  });

/** Updating: only what is given changes. */
export const webhookChangesSchema = (allowTargets: readonly string[]) =>
  z
    .object({
      url: webhookAddress(allowTargets),
      name: webhookName,
      description: webhookDescription,
      eventTypes: webhookEventTypes,
      interviewIds: webhookInterviewIds,
      customHeaders: customHeaderChangesSchema,
      conditions: webhookConditionsSchema,
      rateLimitPerSecond: webhookRateLimit,
    })
    .partial();

export type WebhookSettingsInput = z.input<ReturnType<typeof webhookSettingsSchema>>;
export type WebhookChangesInput = z.input<ReturnType<typeof webhookChangesSchema>>;
