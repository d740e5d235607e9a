/**
 * Custom headers: a receiver that authenticates with a header of its own
 * (a real HTTPS server on loopback that accepts only `X-Api-Key: <value>`)
 * gets every message, retries, resends, samples and past events included;
 * the value is encrypted at rest, masked in the delivery log, and never in
 * a member's answer. Changing the headers takes the waiting retries at once.
 */
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { webhookMessages, webhooks } from "@/db/schema";
import type { Member } from "@/server/auth/members";
import { submitAttempt } from "@/server/domain/attempts";
import { settingsRouter } from "@/server/settings/router";
import { backfill } from "@/server/webhooks/admin/backfill";
import { resendMessage } from "@/server/webhooks/admin/resend";
import { sendSample } from "@/server/webhooks/admin/send-sample";
import { createWebhook, revealWebhookHeaders, updateWebhook } from "@/server/webhooks/admin/webhook-settings";
import { maskedHeaderValue } from "@/server/webhooks/delivery/header-rules";
import { retryDelaysMs } from "@/server/webhooks/delivery/retry-schedule";
import { useTestDatabase } from "../support/database";
import { completeSteps, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import { allowReceiver, pump, useWebhookTestbed } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);
let companyId: string;
let interview: Awaited<ReturnType<typeof makeInterview>>;
const apiKey = `key-${randomBytes(18).toString("hex")}`;

beforeEach(async () => {
  companyId = await makeCompany(test.ctx, "Acme");
  interview = await makeInterview(test.ctx, companyId);
  // The receiver's own authentication: anything without the key is turned away.
  bed.receiver.answer((request) => (request.headers["x-api-key"] === apiKey ? { status: 200, body: "ok" } : { status: 401, body: "no key" }));
});

async function submittedCandidate(email = "ada@example.com") {
  const candidate = await startCandidate(test.ctx, interview.id, { email });
  await completeSteps(test.ctx, interview, candidate.id);
  await scoreAndRecord(test.ctx, candidate.id, 80);
  await submitAttempt(test.ctx, candidate.id);
  return candidate;
}

const settingsAs = (role: Member["role"]) =>
  settingsRouter.createCaller({
    member: { userId: "user_test", companyId, companyName: "Acme", role, name: `A ${role}`, email: `${role}@acme.example` },
    domain: test.ctx,
    sql: test.handle.sql,
    jsonBody: true,
  }).webhooks;

const headerWebhook = (eventTypes: Array<"candidate.submitted" | "candidate.ready"> = ["candidate.submitted"]) =>
  createWebhook(
    test.ctx,
    companyId,
    { url: bed.receiver.url(), eventTypes, customHeaders: [{ name: "X-Api-Key", value: apiKey }] },
    allowReceiver(bed.receiver),
  );

/** Every stored row of the webhook tables, as text: what someone reading the database would see. */
async function storedText() {
  const rows = await test.ctx.db.execute<{ text: string }>(sql`
    select string_agg(t::text, ' ') as text from (
      select row_to_json(w)::text as t from webhooks w
      union all select row_to_json(m)::text from webhook_messages m
      union all select row_to_json(a)::text from webhook_attempts a
    ) rows`);
  return [...rows][0]!.text;
}

describe("custom headers", () => {
  it("go with the first try, the retry after a failure, a resend, a sample and past events; the log and the database never hold the value", async () => {
    const { id: webhookId, customHeaders } = await headerWebhook();
    expect(customHeaders).toEqual([{ name: "X-Api-Key", value: apiKey }]);
    // The first try fails on the receiver's side for another reason; the retry must carry the key too.
    let refusedOnce = false;
    bed.receiver.answer((request) => {
      if (!refusedOnce) {
        refusedOnce = true;
        return { status: 503, body: "busy" };
      }
      return request.headers["x-api-key"] === apiKey ? { status: 200, body: "ok" } : { status: 401, body: "no key" };
    });
    const candidate = await submittedCandidate();
    await pump(bed.deps);
    test.clock.advance(retryDelaysMs[0]!);
    await pump(bed.deps);
    const [message] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
    expect(message).toMatchObject({ status: "succeeded", attemptCount: 2 });

    await resendMessage(test.ctx, companyId, message!.id);
    await sendSample(test.ctx, companyId, webhookId, interview.id, "candidate.submitted");
    await pump(bed.deps);
    // Past events: a second webhook with the key, sent the history it missed.
    const { id: late } = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url("/late"), eventTypes: ["candidate.submitted"], customHeaders: [{ name: "x-api-key", value: apiKey }] },
      allowReceiver(bed.receiver),
    );
    await backfill(test.ctx, companyId, late, new Date(0));
    await pump(bed.deps);

    const received = bed.receiver.received;
    expect(received.map((request) => [request.path, request.headers["service-delivery-attempt"], request.headers["x-api-key"] === apiKey])).toEqual([
      ["/hook", "1", true],
      ["/hook", "2", true],
      ["/hook", "1", true],
      ["/hook", "1", true],
      ["/late", "1", true],
    ]);
    expect(JSON.parse(received[2]!.body).candidate.id).toBe(candidate.id);
    expect(JSON.parse(received[3]!.body).test).toBe(true);
    // Beside the spec's and the Standard Webhooks headers, not instead of them.
    for (const request of received) expect(Object.keys(request.headers)).toEqual(expect.arrayContaining(["service-signature", "webhook-signature"]));

    const log = await settingsAs("admin").message({ messageId: message!.id });
    expect(log.attempts.map((attempt) => attempt.requestHeaders?.["X-Api-Key"])).toEqual([maskedHeaderValue, maskedHeaderValue]);
    expect(await storedText()).not.toContain(apiKey);
    expect(await storedText()).not.toContain('X-Api-Key":"key-');
  });

  it("are shown to admins by name only until revealed, and to members not at all", async () => {
    const { id: webhookId } = await headerWebhook();
    const admin = settingsAs("admin");
    const member = settingsAs("member");
    expect((await admin.get({ id: webhookId })).webhook.customHeaderNames).toEqual(["X-Api-Key"]);
    expect(await admin.revealHeaders({ id: webhookId })).toEqual({ customHeaders: [{ name: "X-Api-Key", value: apiKey }] });
    await submittedCandidate();
    await pump(bed.deps);
    const [message] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));

    const memberAnswers = JSON.stringify([
      await member.get({ id: webhookId }),
      await member.list(),
      await member.messages({ id: webhookId }),
      await member.message({ messageId: message!.id }),
    ]);
    expect(memberAnswers).not.toContain(apiKey);
    expect(memberAnswers.toLowerCase()).not.toContain("x-api-key");
    expect(memberAnswers).not.toContain("customHeaderNames");
    await expect(member.revealHeaders({ id: webhookId })).rejects.toThrow("Only admins can do this.");
  });

  it("once changed, go with the waiting retries straight away; a value left out keeps the saved one", async () => {
    const { id: webhookId } = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url(), eventTypes: ["candidate.submitted"], customHeaders: [{ name: "X-Api-Key", value: "old-key" }] },
      allowReceiver(bed.receiver),
    );
    await submittedCandidate();
    await pump(bed.deps);
    expect(bed.receiver.received.map((request) => request.headers["x-api-key"])).toEqual(["old-key"]);

    const changed = await updateWebhook(test.ctx, companyId, webhookId, { customHeaders: [{ name: "X-Api-Key", value: apiKey }] }, allowReceiver(bed.receiver));
    expect(changed.customHeaders).toEqual([{ name: "X-Api-Key", value: apiKey }]);
    // Due now, not in a minute: the clock has not moved.
    await pump(bed.deps);
    expect(bed.receiver.received.map((request) => request.headers["x-api-key"])).toEqual(["old-key", apiKey]);

    // Renaming nothing, adding one: the saved value stays without being typed again.
    const kept = await updateWebhook(
      test.ctx,
      companyId,
      webhookId,
      {
        customHeaders: [
          { name: "x-api-key", value: null },
          { name: "Authorization", value: "Basic dXNlcjpwYXNz" },
        ],
      },
      allowReceiver(bed.receiver),
    );
    expect(kept.customHeaders).toEqual([
      { name: "x-api-key", value: apiKey },
      { name: "Authorization", value: "Basic dXNlcjpwYXNz" },
    ]);
    expect(await revealWebhookHeaders(test.ctx, companyId, webhookId)).toEqual(kept.customHeaders);
    const unchanged = await updateWebhook(test.ctx, companyId, webhookId, { name: "Renamed" }, allowReceiver(bed.receiver));
    expect(unchanged.customHeaders).toBeNull();
    await expect(
      updateWebhook(test.ctx, companyId, webhookId, { customHeaders: [{ name: "X-New", value: null }] }, allowReceiver(bed.receiver)),
    ).rejects.toThrow("Enter a value for the header X-New: it has none saved.");
    await updateWebhook(test.ctx, companyId, webhookId, { customHeaders: [] }, allowReceiver(bed.receiver));
    const [row] = await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, webhookId));
    expect(row!.customHeadersCiphertext).toBeNull();
  });

  it("refuses names we set or that mean something on the way, with the reason, and bad values", async () => {
    const refusal = async (customHeaders: Array<{ name: string; value: string }>) => {
      try {
        await createWebhook(test.ctx, companyId, { url: bed.receiver.url(), customHeaders }, allowReceiver(bed.receiver));
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("saved");
    };
    const one = (name: string, value = "v") => refusal([{ name, value }]);
    expect(await one("Host")).toContain("The header Host cannot be set: it is taken from the webhook's address.");
    expect(await one("content-length")).toContain("cannot be set: it is worked out from each message's body.");
    expect(await one("Content-Type")).toContain("every message is JSON");
    expect(await one("Transfer-Encoding")).toContain("The header Transfer-Encoding cannot be set");
    expect(await one("Connection")).toContain("The header Connection cannot be set");
    expect(await one("User-Agent")).toContain("it names this service");
    expect(await one("Service-Tenant")).toContain("headers starting with Service- are the spec's own");
    expect(await one("Webhook-Id")).toContain("Standard Webhooks headers");
    expect(await one("Proxy-Authorization")).toContain("never reach the receiver");
    expect(await one("Sec-Fetch-Mode")).toContain("reserved for browsers");
    expect(await one("X Api Key")).toContain("is not a valid HTTP header name");
    expect(await one("X-Api-Key", "a\r\nInjected: yes")).toContain("cannot contain control characters");
    expect(await one("X-Api-Key", "tab\there")).toContain("cannot contain control characters");
    expect(await one("X-Api-Key", "x".repeat(1001))).toContain("at most 1,000 characters");
    expect(await one("X-Api-Key", "")).toContain("Enter a value for each header.");
    expect(
      await refusal([
        { name: "X-A", value: "1" },
        { name: "x-a", value: "2" },
      ]),
    ).toContain("The header x-a is given twice");
    expect(await refusal(Array.from({ length: 6 }, (_, index) => ({ name: `X-H${index}`, value: "v" })))).toContain("at most 5 custom headers");
    // Five, and a value of exactly 1,000 characters, are fine.
    await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url(), customHeaders: Array.from({ length: 5 }, (_, index) => ({ name: `X-H${index}`, value: "x".repeat(1000) })) },
      allowReceiver(bed.receiver),
    );
  });
});
