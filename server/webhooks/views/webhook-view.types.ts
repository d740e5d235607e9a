import { z } from "zod";
import { candidateStatuses, recommendations } from "@/db/schema/candidate-values";
import { eventTypes } from "@/db/schema/event-types";
import { webhookStates } from "@/server/webhooks/views/health";

export const webhookView = z.object({
  id: z.string(),
  /** Full for admins; `https://host/…` for members. */
  address: z.string(),
  /** The admin's label and note; members see them too. */
  name: z.string().nullable(),
  description: z.string().nullable(),
  eventTypes: z.array(z.enum(eventTypes)),
  /** null: all interviews. */
  interviews: z.array(z.object({ id: z.string(), title: z.string() })).nullable(),
  /** See server/webhooks/views/health.ts for what each state means. */
  state: z.enum(webhookStates),
  disabledReason: z.string().nullable(),
  /** Percent of the tries over the chart's 24-hour and 7-day windows that succeeded (server/webhooks/views/health.ts). */
  successRate24h: z.number().nullable(),
  successRate7d: z.number().nullable(),
  tries24h: z.number(),
  tries7d: z.number(),
  lastDeliveryAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  /** Start of the current failure run, when `retrying` or `failing`. */
  failingSince: z.string().nullable(),
  waitingMessages: z.number(),
  /** The custom headers' names (admins only: left out for members, who never see names or values; values are revealed on request). */
  customHeaderNames: z.array(z.string()).optional(),
  /** What narrows the events sent (server/webhooks/delivery/conditions.ts); members see them too. */
  conditions: z
    .object({
      statusTo: z.array(z.enum(candidateStatuses)).optional(),
      minScore: z.number().optional(),
      recommendations: z.array(z.enum(recommendations)).optional(),
    })
    .nullable(),
  /** At most this many messages a second; null: no limit. */
  rateLimitPerSecond: z.number().nullable(),
  /** Messages are waiting because the webhook is sending at its rate limit (server/webhooks/delivery/pacing.ts). */
  heldBackByRateLimit: z.boolean(),
  /** Until when the replaced signing secret still signs (admins only). */
  previousSecretValidUntil: z.string().nullable(),
  createdAt: z.string(),
});

/** Shown after saving when the address's host name does not resolve yet (the webhook is saved all the same). */
export const addressWarning = z.string().nullable();

export type WebhookView = z.infer<typeof webhookView>;
