/** A message and its attempts as the delivery log, the company search and the outcome of a resend or sample show them. */
import { z } from "zod";
import { deliveryErrorClasses, eventTypes, messageOrigins, messageStatuses } from "@/db/schema";

export const messageStatus = z.enum(messageStatuses);

export const messageView = z.object({
  id: z.string(),
  origin: z.enum(messageOrigins),
  eventId: z.string(),
  eventType: z.enum(eventTypes),
  candidateId: z.string().nullable(),
  /** The candidate's name; a sample's made-up candidate's for samples; null when the candidate is gone. */
  candidateName: z.string().nullable(),
  isTest: z.boolean(),
  status: messageStatus,
  attemptCount: z.number(),
  nextAttemptAt: z.string(),
  createdAt: z.string(),
  /** When the event happened (the body's `created_at`); null for a resend whose event is gone. */
  eventAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Why the message ended without reaching the receiver, when that was our side. */
  failureReason: z.string().nullable(),
  /** The message this one resends. */
  resentFrom: z.string().nullable(),
  /** The newest message that resends this one. */
  resentTo: z.object({ id: z.string(), status: messageStatus }).nullable(),
});

/** Headers, bodies, error text and the full address are admin-only: a member's response has none of them. */
export const attemptView = z.object({
  attempt: z.number(),
  address: z.string(),
  startedAt: z.string(),
  durationMs: z.number(),
  responseStatus: z.number().nullable(),
  succeeded: z.boolean(),
  errorClass: z.enum(deliveryErrorClasses).nullable(),
  requestHeaders: z.record(z.string(), z.string()).optional(),
  /** The exact body sent, its first 64 KiB; null when the attempt is older than the keeping of bodies. */
  requestBody: z.string().nullable().optional(),
  /** The body's full size in bytes (more than the text kept when it was cut). */
  requestBodyBytes: z.number().nullable().optional(),
  responseHeaders: z.record(z.string(), z.string()).nullable().optional(),
  responseBody: z.string().nullable().optional(),
  errorMessage: z.string().nullable().optional(),
});
