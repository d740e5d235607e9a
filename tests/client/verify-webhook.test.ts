/**
 * The client's verifyWebhook on real deliveries: the worker's dispatcher signs
 * and POSTs to a local HTTPS receiver, and the test verifies what arrived.
 */
import { type Event, verifyWebhook, WebhookVerificationError } from "@interview-api/client";
import { describe, expect, it } from "vitest";
import { submitAttempt } from "@/server/domain/attempts";
import { rotateWebhookSecret } from "@/server/webhooks/admin/webhook-secret";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { useTestDatabase } from "../support/database";
import { completeSteps, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import type { Received } from "../support/receiver";
import { allowReceiver, pump, useWebhookTestbed } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);
const second = 1000;

/**
 * One real delivery of a candidate.submitted event, signed at `signedAt` (the
 * dispatcher signs with the time it claims the message on the domain clock).
 */
async function delivered(options: { signedAt?: Date; rotate?: boolean } = {}) {
  test.clock.set(options.signedAt ?? new Date());
  const companyId = await makeCompany(test.ctx, "Acme");
  const interview = await makeInterview(test.ctx, companyId);
  const webhook = await createWebhook(test.ctx, companyId, { url: bed.receiver.url(), eventTypes: ["candidate.submitted"] }, allowReceiver(bed.receiver));
  const secrets = [webhook.secret];
  if (options.rotate) secrets.push((await rotateWebhookSecret(test.ctx, companyId, webhook.id)).secret);
  const candidate = await startCandidate(test.ctx, interview.id);
  await completeSteps(test.ctx, interview, candidate.id);
  await scoreAndRecord(test.ctx, candidate.id);
  await submitAttempt(test.ctx, candidate.id);
  expect(await pump(bed.deps)).toEqual([expect.stringMatching(/:succeeded$/)]);
  const [received] = bed.receiver.received;
  return { received: received!, secrets, candidateId: candidate.id };
}

function refusal(verify: () => Event): WebhookVerificationError {
  try {
    verify();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error("expected the message to be refused");
}

const without = (headers: Received["headers"], name: string) => Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));

describe("verifyWebhook on real deliveries", () => {
  it("accepts a delivery by Service-Signature and returns its event, from Node or fetch-style headers and text or bytes", async () => {
    const { received, secrets, candidateId } = await delivered();
    const event = verifyWebhook(received.body, received.headers, secrets[0]!, { toleranceSeconds: 300 });
    expect(event).toMatchObject({ id: received.headers["service-event-id"], type: "candidate.submitted", candidate: { id: candidateId } });
    const fetchStyle = new Headers(Object.entries(received.headers).map(([name, value]): [string, string] => [name, String(value)]));
    expect(verifyWebhook(Buffer.from(received.body), fetchStyle, secrets[0]!)).toEqual(event);
  });

  it("accepts the Standard Webhooks headers on their own", async () => {
    const { received, secrets } = await delivered();
    expect(received.headers["webhook-id"]).toBe(received.headers["service-event-id"]);
    const event = verifyWebhook(received.body, without(received.headers, "service-signature"), secrets[0]!);
    expect(event.id).toBe(received.headers["webhook-id"]);
  });

  it("refuses a tampered body, another secret, and a message without a signature, under either scheme", async () => {
    const { received, secrets } = await delivered();
    const tampered = received.body.replace('"candidate.submitted"', '"candidate.ready"');
    expect(tampered).not.toBe(received.body);
    const standardOnly = without(received.headers, "service-signature");
    const otherSecret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;

    expect(refusal(() => verifyWebhook(tampered, received.headers, secrets[0]!)).reason).toBe("signature_mismatch");
    expect(refusal(() => verifyWebhook(tampered, standardOnly, secrets[0]!)).reason).toBe("signature_mismatch");
    expect(refusal(() => verifyWebhook(`${received.body} `, received.headers, secrets[0]!)).reason).toBe("signature_mismatch");
    expect(refusal(() => verifyWebhook(received.body, received.headers, otherSecret)).reason).toBe("signature_mismatch");
    expect(refusal(() => verifyWebhook(received.body, standardOnly, otherSecret)).reason).toBe("signature_mismatch");
    expect(refusal(() => verifyWebhook(received.body, without(standardOnly, "webhook-signature"), secrets[0]!)).reason).toBe("missing_signature");
    const truncated = { ...received.headers, "service-signature": String(received.headers["service-signature"]).replace(/,v1=.*/, "") };
    expect(refusal(() => verifyWebhook(received.body, truncated, secrets[0]!)).reason).toBe("malformed_signature");
  });

  it("refuses a delivery signed longer ago than the tolerance, and accepts it within a wider one", async () => {
    const { received, secrets } = await delivered({ signedAt: new Date(Date.now() - 330 * second) });
    const standardOnly = without(received.headers, "service-signature");
    expect(refusal(() => verifyWebhook(received.body, received.headers, secrets[0]!, { toleranceSeconds: 300 })).reason).toBe("timestamp_too_old");
    expect(refusal(() => verifyWebhook(received.body, standardOnly, secrets[0]!, { toleranceSeconds: 300 })).reason).toBe("timestamp_too_old");
    expect(refusal(() => verifyWebhook(received.body, received.headers, secrets[0]!)).reason).toBe("timestamp_too_old");
    expect(verifyWebhook(received.body, received.headers, secrets[0]!, { toleranceSeconds: 360 }).type).toBe("candidate.submitted");
    expect(verifyWebhook(received.body, standardOnly, secrets[0]!, { toleranceSeconds: 360 }).type).toBe("candidate.submitted");
  });

  it("refuses a delivery signed further ahead than the tolerance, and accepts it within a wider one", async () => {
    const { received, secrets } = await delivered({ signedAt: new Date(Date.now() + 330 * second) });
    const standardOnly = without(received.headers, "service-signature");
    expect(refusal(() => verifyWebhook(received.body, received.headers, secrets[0]!, { toleranceSeconds: 300 })).reason).toBe("timestamp_in_future");
    expect(refusal(() => verifyWebhook(received.body, standardOnly, secrets[0]!, { toleranceSeconds: 300 })).reason).toBe("timestamp_in_future");
    expect(verifyWebhook(received.body, received.headers, secrets[0]!, { toleranceSeconds: 360 }).type).toBe("candidate.submitted");
    expect(verifyWebhook(received.body, standardOnly, secrets[0]!, { toleranceSeconds: 360 }).type).toBe("candidate.submitted");
  });

  it("accepts either secret while a replaced one still signs (any matching v1)", async () => {
    const { received, secrets } = await delivered({ rotate: true });
    expect(String(received.headers["service-signature"]).match(/v1=/g)).toHaveLength(2);
    expect(String(received.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of secrets) {
      expect(verifyWebhook(received.body, received.headers, secret).type).toBe("candidate.submitted");
      expect(verifyWebhook(received.body, without(received.headers, "service-signature"), secret).type).toBe("candidate.submitted");
    }
  });
});
