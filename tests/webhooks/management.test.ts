/** Webhook settings, resends, samples, the delivery log, health and retention. */
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { historyRetentionDays } from "@/db/partitions";
import { events, eventTypes, fanOutPositions, webhookMessages, webhookQueue, webhooks } from "@/db/schema";
import type { LoadedInterview } from "@/server/domain/interviews";
import { changeStatus } from "@/server/domain/statuses";
import { resendFailedSince, resendMessage } from "@/server/webhooks/admin/resend";
import { sendSample } from "@/server/webhooks/admin/send-sample";
import { setWebhookEnabled } from "@/server/webhooks/admin/set-webhook-enabled";
import { maxWebhooksPerCompany } from "@/server/webhooks/admin/settings-schema";
import { revealWebhookSecret } from "@/server/webhooks/admin/webhook-secret";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import { deliveryChart } from "@/server/webhooks/views/delivery-chart";
import { listAttempts, listMessages } from "@/server/webhooks/views/delivery-log";
import { webhookHealth } from "@/server/webhooks/views/health";
import { deleteExpiredHistory } from "@/worker/tasks/history-partitions";
import { useTestDatabase } from "../support/database";
import { companyWithInterview, makeCompany, makeInterview, submitCandidate } from "../support/fixtures";
import { allowReceiver, pump, useWebhookTestbed, verifySignature } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);
let companyId: string;
let interview: LoadedInterview;

beforeEach(async () => ({ companyId, interview } = await companyWithInterview(test.ctx)));

describe("settings", () => {
  it("allow at most 10 webhooks per company, even when created at the same time", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 14 }, (_, index) => createWebhook(test.ctx, companyId, { url: `https://hooks${index}.example.com/in` }, { allowTargets: [] })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(maxWebhooksPerCompany);
    const refused = results.filter((result) => result.status === "rejected") as PromiseRejectedResult[];
    expect(refused.map((result) => String(result.reason.message))).toEqual(Array(4).fill("A company can have at most 10 webhooks."));
  });

  it("keep the signing secret encrypted, readable by the company only", async () => {
    const { id, secret } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(await revealWebhookSecret(test.ctx, companyId, id)).toBe(secret);
    const other = await makeCompany(test.ctx, "Other");
    await expect(revealWebhookSecret(test.ctx, other, id)).rejects.toThrow(/No webhook/);
    const [row] = await test.ctx.db.execute<{ text: string }>(sql`select row_to_json(w)::text as text from webhooks w where id = ${id}`);
    expect(row!.text).not.toContain(secret.slice(6, 30));
  });

  it("refuse interviews of another company and unknown event types", async () => {
    const other = await makeCompany(test.ctx, "Other");
    const theirs = await makeInterview(test.ctx, other);
    await expect(createWebhook(test.ctx, companyId, { url: bed.receiver.url(), interviewIds: [theirs.id] }, allowReceiver(bed.receiver))).rejects.toThrow(
      `No interview with id ${theirs.id}.`,
    );
    await expect(createWebhook(test.ctx, companyId, { url: bed.receiver.url(), eventTypes: [] }, allowReceiver(bed.receiver))).rejects.toThrow(
      "Choose at least one event type.",
    );
  });
});

describe("resending", () => {
  it("sends one message again: same event id, current data, current address, tries from 1", async () => {
    const { id: webhookId, secret } = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url("/first"), eventTypes: ["candidate.submitted"] },
      allowReceiver(bed.receiver),
    );
    const candidate = await submitCandidate(test.ctx, interview);
    await pump(bed.deps);
    const [original] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
    await changeStatus(test.ctx, candidate.id, { to: "shortlisted", by: { type: "team", name: "Ana" } });
    await test.ctx.db
      .update(webhooks)
      .set({ url: bed.receiver.url("/second") })
      .where(eq(webhooks.id, webhookId));
    const { id } = await resendMessage(test.ctx, companyId, original!.id);
    await pump(bed.deps);
    const [first, again] = bed.receiver.received;
    expect(again!.path).toBe("/second");
    expect(again!.headers["service-event-id"]).toBe(first!.headers["service-event-id"]);
    expect(again!.headers["service-delivery-attempt"]).toBe("1");
    expect(JSON.parse(again!.body).candidate.status).toBe("shortlisted");
    expect(verifySignature(again!.headers["service-signature"] as string, again!.body, secret).valid).toBe(true);
    expect(id).not.toBe(original!.id);
    await expect(resendMessage(test.ctx, await makeCompany(test.ctx, "Other"), original!.id)).rejects.toThrow(/No message/);
  });

  it("resends every failed message since a time, once per event", async () => {
    const { id: webhookId } = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url(), eventTypes: ["candidate.submitted"] },
      allowReceiver(bed.receiver),
    );
    bed.receiver.answer(() => ({ status: 500 }));
    await submitCandidate(test.ctx, interview, { email: "a@example.com" });
    await pump(bed.deps);
    const cutoff = test.clock.now();
    test.clock.advance(1000);
    await submitCandidate(test.ctx, interview, { email: "b@example.com" });
    await submitCandidate(test.ctx, interview, { email: "c@example.com" });
    await pump(bed.deps);
    // Their tries ended by hand: out of the queue, failed in the log.
    await test.ctx.db.delete(webhookQueue).where(eq(webhookQueue.webhookId, webhookId));
    await test.ctx.db.update(webhookMessages).set({ status: "failed" }).where(eq(webhookMessages.webhookId, webhookId));
    bed.receiver.answer(() => ({ status: 200 }));
    bed.receiver.received.length = 0;
    expect(await resendFailedSince(test.ctx, companyId, webhookId, new Date(cutoff.getTime() + 1))).toEqual({ resent: 2, more: false });
    await pump(bed.deps);
    expect(bed.receiver.received).toHaveLength(2);
  });
});

describe("samples", () => {
  it("send a made-up candidate with the interview's real questions, test: true, kept out of the event history", async () => {
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    const { messageId, eventId } = await sendSample(test.ctx, companyId, webhookId, interview.id);
    await pump(bed.deps);
    const body = JSON.parse(bed.receiver.received[0]!.body);
    expect(body).toMatchObject({ id: eventId, test: true, api_version: "v1", candidate: { interview: { id: interview.id } } });
    expect(Object.keys(body.candidate.answers).sort()).toEqual(interview.questions.map((q) => q.id).sort());
    expect(await test.ctx.db.select().from(events).where(eq(events.id, eventId))).toEqual([]);
    const log = await listMessages(test.handle.sql, companyId, webhookId, { limit: 10 }, test.clock.now());
    expect(log.messages.map((m) => [m.id, m.is_test, m.status])).toEqual([[messageId, true, "succeeded"]]);
  });

  it("sends the same body again, byte for byte, when resent", async () => {
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    const { messageId } = await sendSample(test.ctx, companyId, webhookId, interview.id);
    await pump(bed.deps);
    await resendMessage(test.ctx, companyId, messageId);
    await pump(bed.deps);
    const [first, again] = bed.receiver.received.map((request) => request.body);
    expect(again).toBe(first);
  });

  it("come in every event type, each with its fields in the order of a real delivery of that type", async () => {
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    const candidate = await submitCandidate(test.ctx, interview);
    await changeStatus(test.ctx, candidate.id, { to: "shortlisted", by: { type: "team", name: "Tess Team" } });
    await pump(bed.deps);
    const real = new Map(bed.receiver.received.map((request) => [JSON.parse(request.body).type as string, request.body]));
    expect([...real.keys()].sort()).toEqual([...eventTypes].sort());
    for (const type of eventTypes) await sendSample(test.ctx, companyId, webhookId, interview.id, type);
    await pump(bed.deps);
    const samples = bed.receiver.received.map((request) => request.body).filter((body) => JSON.parse(body).test);
    expect(samples.map((body) => JSON.parse(body).type).sort()).toEqual([...eventTypes].sort());
    for (const sample of samples) {
      const type = JSON.parse(sample).type as string;
      const [made, sent] = [fieldOrder(sample), fieldOrder(real.get(type)!)];
      // Every field outside lists, in the same order; inside lists (highlights, documents: data of each candidate), those both have.
      const outsideLists = (paths: string[]) => paths.filter((path) => !path.includes("[]"));
      expect(outsideLists(made), type).toEqual(outsideLists(sent));
      expect(
        made.filter((path) => sent.includes(path)),
        type,
      ).toEqual(sent.filter((path) => made.includes(path)));
    }
    const changed = JSON.parse(samples.find((body) => JSON.parse(body).type === "candidate.status_changed")!);
    expect(changed.change).toEqual({ from: "passed", to: "shortlisted", by: { type: "team", name: "Sample Reviewer" } });
    expect(changed.candidate.status).toBe("shortlisted");
  });
});

/**
 * The order of every object's fields in a JSON text, as paths ("candidate.result.score");
 * maps keyed by data (answers by question id, skills by name) are one entry each.
 */
function fieldOrder(text: string): string[] {
  const maps = new Set(["candidate.answers", "candidate.result.skills"]);
  const walk = (value: unknown, path: string): string[] => {
    if (Array.isArray(value)) return value.length > 0 ? walk(value[0], `${path}[]`) : [];
    if (value === null || typeof value !== "object" || maps.has(path)) return [];
    return Object.entries(value).flatMap(([key, inner]) => {
      const at = path ? `${path}.${key}` : key;
      return [at, ...walk(inner, at)];
    });
  };
  return walk(JSON.parse(text), "");
}

describe("the delivery log", () => {
  it("lists messages with filters and pages, and each message's attempts with bounded excerpts", async () => {
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    bed.receiver.answer(() => ({ status: 500, headers: { "X-Reason": "maintenance" }, body: "x".repeat(10_000) }));
    const candidate = await submitCandidate(test.ctx, interview);
    await pump(bed.deps);
    const failedOnly = await listMessages(test.handle.sql, companyId, webhookId, { limit: 10, eventType: "candidate.submitted" }, test.clock.now());
    expect(failedOnly.messages.map((m) => m.event_type)).toEqual(["candidate.submitted"]);
    const byCandidate = await listMessages(
      test.handle.sql,
      companyId,
      webhookId,
      { limit: 2, search: { field: "candidate", prefix: candidate.id } },
      test.clock.now(),
    );
    expect(byCandidate.messages).toHaveLength(2);
    expect(byCandidate.next).not.toBeNull();
    const rest = await listMessages(
      test.handle.sql,
      companyId,
      webhookId,
      { limit: 2, search: { field: "candidate", prefix: candidate.id }, before: byCandidate.next! },
      test.clock.now(),
    );
    expect(rest.messages).toHaveLength(1);
    const [attempt] = await listAttempts(test.handle.sql, companyId, failedOnly.messages[0]!);
    expect(attempt).toMatchObject({ attempt: 1, response_status: 500, succeeded: false, error_class: "http_status" });
    expect(attempt!.response_body!.length).toBe(2048);
    expect(attempt!.response_headers!["x-reason"]).toBe("maintenance");
    expect(attempt!.request_headers["Service-Signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(attempt!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(await listAttempts(test.handle.sql, await makeCompany(test.ctx, "Other"), failedOnly.messages[0]!)).toEqual([]);
  });
});

describe("the delivery chart", () => {
  it("counts tries per hour, succeeded and failed, with every hour of the range present, and the success rates count the same tries", async () => {
    const { id } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    test.clock.set("2026-03-02T09:10:00Z");
    await sendSample(test.ctx, companyId, id, interview.id);
    await pump(bed.deps);
    test.clock.set("2026-03-02T11:40:00Z");
    bed.receiver.answer(() => ({ status: 500 }));
    await sendSample(test.ctx, companyId, id, interview.id);
    await pump(bed.deps);
    // Not tried before the webhook is turned off: it ends failed on our side, with no try, and is neither charted nor counted.
    await sendSample(test.ctx, companyId, id, interview.id);
    await setWebhookEnabled(test.ctx, companyId, id, false);

    const day = await deliveryChart(test.handle.sql, companyId, id, "24h", test.clock.now());
    expect(day).toHaveLength(24);
    expect(day.at(-1)).toEqual({ hour: "2026-03-02T11:00:00.000Z", succeeded: 0, failed: 1 });
    expect(day.at(-3)).toEqual({ hour: "2026-03-02T09:00:00.000Z", succeeded: 1, failed: 0 });
    const week = await deliveryChart(test.handle.sql, companyId, id, "7d", test.clock.now());
    expect(week).toHaveLength(168);
    const health = (await webhookHealth(test.handle.sql, companyId, [id], test.clock.now())).get(id)!;
    for (const [buckets, tries, rate] of [
      [day, health.tries24h, health.successRate24h],
      [week, health.tries7d, health.successRate7d],
    ] as const) {
      const succeeded = buckets.reduce((sum, bucket) => sum + bucket.succeeded, 0);
      const all = succeeded + buckets.reduce((sum, bucket) => sum + bucket.failed, 0);
      expect(all).toBe(2);
      expect(tries).toBe(all);
      expect(rate).toBe(Math.round((succeeded / all) * 1000) / 10);
    }
    const otherCompany = await makeCompany(test.ctx, "Other");
    const foreign = await deliveryChart(test.handle.sql, otherCompany, id, "24h", test.clock.now());
    expect(foreign.every((bucket) => bucket.succeeded + bucket.failed === 0)).toBe(true);
  });
});

describe("health", () => {
  it("says healthy, retrying or off, with success rates and waiting messages (each state: health-states.test.ts)", async () => {
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    await submitCandidate(test.ctx, interview, { email: "ok@example.com" });
    await pump(bed.deps);
    let health = (await webhookHealth(test.handle.sql, companyId, [webhookId], test.clock.now())).get(webhookId)!;
    expect(health).toMatchObject({ state: "healthy", successRate24h: 100, successRate7d: 100, waitingMessages: 0, lastFailureAt: null });
    bed.receiver.answer(() => ({ status: 500 }));
    await submitCandidate(test.ctx, interview, { email: "bad@example.com" });
    await pump(bed.deps);
    health = (await webhookHealth(test.handle.sql, companyId, [webhookId], test.clock.now())).get(webhookId)!;
    expect(health).toMatchObject({ state: "retrying", successRate24h: 75, waitingMessages: 3 });
    await test.ctx.db.update(webhooks).set({ enabled: false }).where(eq(webhooks.id, webhookId));
    health = (await webhookHealth(test.handle.sql, companyId, [webhookId], test.clock.now())).get(webhookId)!;
    expect(health.state).toBe("off");
  });
});

describe("retention and repeats", () => {
  it("deletes log entries and events older than 30 days and keeps newer ones", async () => {
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    const now = test.clock.now();
    test.clock.set(new Date(now.getTime() - 31 * 24 * 3600_000));
    await submitCandidate(test.ctx, interview, { email: "old@example.com" });
    await pump(bed.deps);
    test.clock.set(new Date(now.getTime() - 29 * 24 * 3600_000));
    await submitCandidate(test.ctx, interview, { email: "new@example.com" });
    await pump(bed.deps);
    test.clock.set(now);
    const before = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
    const removed = await deleteExpiredHistory(bed.deps);
    const after = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
    expect(before).toHaveLength(6);
    expect(after).toHaveLength(3);
    expect(removed.daysDropped).toContain(new Date(now.getTime() - 31 * 24 * 3600_000).toISOString().slice(0, 10));
    const left = await test.ctx.db.select({ createdAt: events.createdAt }).from(events).where(eq(events.companyId, companyId));
    expect(left.every((event) => now.getTime() - event.createdAt.getTime() < historyRetentionDays * 24 * 3600_000)).toBe(true);
  });

  it("adds no second message when the same events are fanned out again", async () => {
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    await submitCandidate(test.ctx, interview);
    await pump(bed.deps);
    // As if the position were lost: the whole history is read again.
    await test.ctx.db.update(fanOutPositions).set({ txId: 0n, seq: 0n }).where(eq(fanOutPositions.companyId, companyId));
    expect(await fanOutCompany(test.ctx, companyId)).toEqual({ created: 0 });
    expect(await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId))).toHaveLength(3);
  });
});
