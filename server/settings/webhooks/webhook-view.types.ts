import { z } from "zod";
import { eventTypes } from "@/db/schema/event-types";

export const webhookView = z.object({
  id: z.string(),
  /** Full for admins; `https://host/…` for members. */
  address: z.string(),
  eventTypes: z.array(z.enum(eventTypes)),
  /** null: all interviews. */
  interviews: z.array(z.object({ id: z.string(), title: z.string() })).nullable(),
  state: z.enum(["healthy", "failing", "disabled"]),
  disabledReason: z.string().nullable(),
  successRate24h: z.number().nullable(),
  successRate7d: z.number().nullable(),
  lastDeliveryAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  failingSince: z.string().nullable(),
  waitingMessages: z.number(),
  /** Until when the replaced signing secret still signs (admins only). */
  previousSecretValidUntil: z.string().nullable(),
  createdAt: z.string(),
});

export type WebhookView = z.infer<typeof webhookView>;
