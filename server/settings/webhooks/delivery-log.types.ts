import { z } from "zod";
import { eventTypes, messageOrigins, messageStatuses } from "@/db/schema";

const messageStatus = z.enum(messageStatuses);

export const listMessagesInput = z.object({
  id: z.string().min(1),
  status: messageStatus.optional(),
  eventType: z.enum(eventTypes).optional(),
  candidateId: z.string().trim().min(1).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  cursor: z.string().optional(),
  limit: z.number().int().min(1).max(100).default(25),
});

export const messageView = z.object({
  id: z.string(),
  origin: z.enum(messageOrigins),
  eventId: z.string(),
  eventType: z.enum(eventTypes),
  candidateId: z.string().nullable(),
  isTest: z.boolean(),
  status: messageStatus,
  attemptCount: z.number(),
  nextAttemptAt: z.string(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** Why the message ended without reaching the receiver, when that was our side. */
  failureReason: z.string().nullable(),
});

export const listMessagesOutput = z.object({ messages: z.array(messageView), nextCursor: z.string().nullable() });

export const getMessageInput = z.object({ messageId: z.string().min(1) });

/** Headers, bodies, error text and the full address are admin-only: a member's response has none of them. */
export const attemptView = z.object({
  attempt: z.number(),
  address: z.string(),
  startedAt: z.string(),
  durationMs: z.number(),
  responseStatus: z.number().nullable(),
  succeeded: z.boolean(),
  errorClass: z.string().nullable(),
  requestHeaders: z.record(z.string(), z.string()).optional(),
  responseHeaders: z.record(z.string(), z.string()).nullable().optional(),
  responseBody: z.string().nullable().optional(),
  errorMessage: z.string().nullable().optional(),
});

export const getMessageOutput = z.object({ message: messageView, attempts: z.array(attemptView) });
