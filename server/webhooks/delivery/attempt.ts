/**
 * One try of one claimed message (docs/webhook-engine.md): its request, when
 * there is one to make, and what came of it, ready to be recorded
 * (record.ts). No transaction is open while it runs.
 */
import { env } from "@/server/env";
import { log } from "@/server/log";
import type { ClaimedMessage } from "./claim";
import { leaseMs } from "./claim";
import { maskCustomHeaders } from "./custom-headers";
import type { DeliveryResult } from "./delivery-client";
import { answerDeadlineMs } from "./delivery-client";
import { deliveryHeaders } from "./delivery-headers";
import type { DeliveryDeps } from "./deps";
import { eventGoneReason, unexpectedFaultReason } from "./unsent-reasons";

export const userAgent = () => `InterviewAPI-Webhooks/1.0 (+${env.APP_URL})`;

/**
 * What became of one claimed message; `headers` as the log keeps them
 * (custom values masked). A request's `attemptId` is given as it is made, so
 * a recording tried again (its reply lost after the server committed) writes
 * the attempt once.
 *
 * - `sent`: a request was made (whatever came back).
 * - `ended`: there is nothing to send, ever (its event or candidate is gone).
 * - `unbuildable`: our side could not make the request now; tried again on the schedule.
 * - `lease_lost`: the lease had nearly run out before the request could start; nothing is recorded, the lease runs out.
 */
export type Attempted =
  | {
      message: ClaimedMessage;
      kind: "sent";
      attemptId: string;
      attempt: number;
      url: string;
      startedAt: Date;
      headers: Record<string, string>;
      body: string;
      result: DeliveryResult;
    }
  | { message: ClaimedMessage; kind: "ended"; reason: string }
  | { message: ClaimedMessage; kind: "unbuildable"; reason: string }
  | { message: ClaimedMessage; kind: "lease_lost" };

/**
 * Sends one claimed message, unless there is nothing to send, our side cannot
 * make it, or its lease is nearly over. A try that throws (a fault of ours)
 * counts as one our side could not make, so the message follows the retry
 * schedule and ends, instead of going again at every lease's end.
 */
export async function attemptDelivery(deps: DeliveryDeps, message: ClaimedMessage): Promise<Attempted> {
  try {
    return await attemptOnce(deps, message);
  } catch (error) {
    log.error("a webhook attempt failed unexpectedly; it is tried again on the retry schedule", { error, messageId: message.id, webhookId: message.webhookId });
    return { message, kind: "unbuildable", reason: unexpectedFaultReason };
  }
}

async function attemptOnce({ ctx, client }: DeliveryDeps, message: ClaimedMessage): Promise<Attempted> {
  const { request } = message;
  if (request.kind === "gone") return { message, kind: "ended", reason: eventGoneReason };
  if (request.kind === "unbuildable") return { message, kind: "unbuildable", reason: request.reason };
  // A worker that stalled until its lease has nearly run out sends nothing: another claim may hold the message by now.
  if (message.leasedAt.getTime() + leaseMs() - ctx.clock.now().getTime() < answerDeadlineMs) return { message, kind: "lease_lost" };
  const attempt = message.attemptCount + 1;
  const startedAt = message.leasedAt;
  const ours = deliveryHeaders({
    eventId: message.eventId,
    eventType: message.eventType,
    attempt,
    body: request.body,
    secrets: request.secrets,
    timestamp: Math.floor(ctx.hostClock.now().getTime() / 1000),
    userAgent: userAgent(),
  });
  // The refused names (header-rules.ts) keep a custom header from replacing one of ours.
  const sent = { ...ours, ...Object.fromEntries(request.customHeaders.map(({ name, value }) => [name, value])) };
  const result = await client.post(request.url, request.body, sent);
  const headers = maskCustomHeaders(sent, request.customHeaders);
  return { message, kind: "sent", attemptId: ctx.newId("attempt"), attempt, url: request.url, startedAt, headers, body: request.body, result };
}
