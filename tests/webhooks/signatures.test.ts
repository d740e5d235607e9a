/**
 * Real deliveries, checked by verifiers we did not write: the Standard
 * Webhooks library on the `webhook-*` headers and Stripe's on
 * `Service-Signature`, each given the secret exactly as the settings show it,
 * before, during and after a rotation.
 */
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import Stripe from "stripe";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { submitAttempt } from "@/server/domain/attempts";
import type { LoadedInterview } from "@/server/domain/interviews";
import { changeStatus } from "@/server/domain/statuses";
import { rotateWebhookSecret } from "@/server/webhooks/admin/webhook-secret";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { generateSecret } from "@/server/webhooks/delivery/secrets";
import { useTestDatabase } from "../support/database";
import { companyWithInterview, completeSteps, scoreAndRecord, startCandidate } from "../support/fixtures";
import type { Received } from "../support/receiver";
import { allowReceiver, pump, useWebhookTestbed } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);
let companyId: string;
let interview: LoadedInterview;

beforeEach(async () => ({ companyId, interview } = await companyWithInterview(test.ctx)));

/** A webhook for every event type, and its secret as the settings show it. */
async function webhook() {
  return createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
}

/** One candidate's four events (submitted, scored, ready, a status change), delivered: the requests received. */
async function deliverEveryType(email: string) {
  const candidate = await startCandidate(test.ctx, interview.id, { email });
  await completeSteps(test.ctx, interview, candidate.id);
  await scoreAndRecord(test.ctx, candidate.id, 80);
  await submitAttempt(test.ctx, candidate.id);
  await changeStatus(test.ctx, candidate.id, { to: "shortlisted", by: { type: "team", name: "Ana" } });
  const before = bed.receiver.received.length;
  await pump(bed.deps);
  const received = bed.receiver.received.slice(before);
  expect(received.map((request) => request.headers["service-event-type"])).toEqual([
    "candidate.submitted",
    "candidate.scored",
    "candidate.ready",
    "candidate.status_changed",
  ]);
  return received;
}

/**
 * Runs a check as a receiver would on arrival: both libraries compare the
 * signed timestamp with `Date.now()`, so the receiver's clock reads the test
 * clock, which sent the request (minutes later when asked).
 */
function onArrival<T>(check: () => T, laterMs = 0): T {
  vi.useFakeTimers({ now: test.clock.now().getTime() + laterMs, toFake: ["Date"] });
  try {
    return check();
  } finally {
    vi.useRealTimers();
  }
}

/** What the Standard Webhooks library makes of a request: the parsed body, or null when it refuses the request. */
function standardWebhooks(request: Received, secret: string, laterMs = 0): unknown {
  try {
    return onArrival(() => new Webhook(secret).verify(request.body, request.headers as Record<string, string>), laterMs);
  } catch (error) {
    if (error instanceof WebhookVerificationError) return null;
    throw error;
  }
}

/** What Stripe's library makes of a request's `Service-Signature` (5 minutes' tolerance, as spec 5.1 says): the parsed body, or null. */
function stripe(request: Received, secret: string, laterMs = 0): unknown {
  try {
    return onArrival(() => Stripe.webhooks.constructEvent(request.body, request.headers["service-signature"] as string, secret, 300), laterMs);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) return null;
    throw error;
  }
}

/** For each request: whether each library accepts it with each secret, in the order given. */
const verdicts = (received: Received[], secrets: string[]) =>
  received.map((request) => secrets.flatMap((secret) => [standardWebhooks(request, secret) !== null, stripe(request, secret) !== null]));

describe("independent verifiers", () => {
  it("accept every delivery of every event type with the secret as shown, and read the body we sent", async () => {
    const { secret } = await webhook();
    const received = await deliverEveryType("ada@example.com");
    for (const request of received) {
      expect(standardWebhooks(request, secret)).toEqual(JSON.parse(request.body));
      expect(stripe(request, secret)).toEqual(JSON.parse(request.body));
    }
  });

  it("refuse a tampered body, another secret, and a message checked more than 5 minutes after it was signed", async () => {
    const { secret } = await webhook();
    const [request] = await deliverEveryType("ada@example.com");
    const body = JSON.parse(request!.body);
    const tampered = { ...request!, body: JSON.stringify({ ...body, candidate: { ...body.candidate, status: "passed" } }) };
    expect(tampered.body).not.toBe(request!.body);
    expect([standardWebhooks(tampered, secret), stripe(tampered, secret)]).toEqual([null, null]);
    const oneByteMore = { ...request!, body: `${request!.body} ` };
    expect([standardWebhooks(oneByteMore, secret), stripe(oneByteMore, secret)]).toEqual([null, null]);
    const otherSecret = generateSecret();
    expect([standardWebhooks(request!, otherSecret), stripe(request!, otherSecret)]).toEqual([null, null]);
    const sixMinutes = 6 * 60_000;
    expect([standardWebhooks(request!, secret, sixMinutes), stripe(request!, secret, sixMinutes)]).toEqual([null, null]);
  });

  it("accept the old and the new secret for 24 hours after a rotation, then only the new", async () => {
    const { id, secret: old } = await webhook();
    const { secret: fresh } = await rotateWebhookSecret(test.ctx, companyId, id);
    const bothSecrets = [true, true, true, true];
    expect(verdicts(await deliverEveryType("right-after@example.com"), [old, fresh])).toEqual(Array(4).fill(bothSecrets));

    test.clock.advance(24 * 3600_000 - 60_000);
    expect(verdicts(await deliverEveryType("a-minute-before@example.com"), [old, fresh])).toEqual(Array(4).fill(bothSecrets));

    test.clock.advance(60_000 + 1000);
    const onlyNew = [false, false, true, true];
    expect(verdicts(await deliverEveryType("after@example.com"), [old, fresh])).toEqual(Array(4).fill(onlyNew));
  });
});
