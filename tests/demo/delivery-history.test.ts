/**
 * The demo seed delivers its history to the demo webhook at the times it
 * happened, through the real log, dispatcher and an HTTPS receiver: the
 * chart spreads over the week, retries follow the real schedule, and each
 * candidate's messages still arrive in the history's order.
 */
import { createHash } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, webhookAttempts, webhookMessages, webhooks } from "@/db/schema";
import { seedDemo } from "@/server/demo/seed";
import { createDeliveryClient } from "@/server/webhooks/delivery/delivery-client";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import { deliveryChart } from "@/server/webhooks/views/delivery-chart";
import { useTestDatabase } from "../support/database";
import { type Receiver, startReceiver } from "../support/receiver";

const test = useTestDatabase();
let receiver: Receiver;
let companyId: string;
let now: Date;
const minute = 60_000;

// Like the demo receiver: about one event in eight fails its first try.
const failsFirstTry = (eventId: string) => createHash("sha256").update(eventId).digest()[0]! % 8 === 0;

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.answer((request) =>
    request.headers["service-delivery-attempt"] === "1" && failsFirstTry(String(request.headers["service-event-id"])) ? { status: 503 } : { status: 200 },
  );
  const client = createDeliveryClient({ allowTargets: [receiver.target], extraCa: receiver.ca });
  now = test.clock.now();
  try {
    const seeded = await seedDemo(test.ctx, {
      webhook: { url: receiver.url("/demo"), addresses: { allowTargets: [receiver.target] }, deliveries: { sql: test.handle.sql, client } },
    });
    companyId = seeded.company_id;
  } finally {
    await client.close();
  }
}, 180_000);
afterAll(() => receiver.close());

describe("the demo's delivery history", () => {
  it("spreads the messages over the days their events happened, so the 7-day chart has more than one day", async () => {
    const [webhook] = await test.ctx.db.select().from(webhooks).where(eq(webhooks.companyId, companyId));
    const buckets = await deliveryChart(test.handle.sql, companyId, webhook!.id, "7d", now);
    const days = new Set(buckets.filter((bucket) => bucket.succeeded + bucket.failed > 0).map((bucket) => bucket.hour.slice(0, 10)));
    expect(days.size).toBeGreaterThan(3);
    const hours = buckets.filter((bucket) => bucket.succeeded + bucket.failed > 0).length;
    expect(hours).toBeGreaterThan(20);
  });

  it("creates each message just after its event, never after the seed's now, and tries it then", async () => {
    const rows = await test.ctx.db
      .select({ message: webhookMessages, eventAt: events.createdAt })
      .from(webhookMessages)
      .innerJoin(events, eq(events.id, webhookMessages.eventId))
      .where(eq(webhookMessages.companyId, companyId));
    const eventCount = (await test.ctx.db.select({ id: events.id }).from(events).where(eq(events.companyId, companyId))).length;
    expect(rows.length).toBe(eventCount);
    for (const { message, eventAt } of rows) {
      expect(message.createdAt.getTime() - eventAt.getTime()).toBeGreaterThanOrEqual(0);
      expect(message.createdAt.getTime() - eventAt.getTime()).toBeLessThan(minute);
      expect(message.createdAt.getTime()).toBeLessThanOrEqual(now.getTime());
    }
    const attempts = await test.ctx.db.select().from(webhookAttempts).orderBy(asc(webhookAttempts.startedAt));
    const created = new Map(rows.map(({ message }) => [message.id, message.createdAt.getTime()]));
    for (const attempt of attempts) {
      expect(attempt.startedAt.getTime()).toBeGreaterThanOrEqual(created.get(attempt.messageId)!);
      expect(attempt.startedAt.getTime()).toBeLessThanOrEqual(now.getTime());
    }
    expect(receiver.received.length).toBe(attempts.length);
  });

  it("retries a failed first try on the real schedule (a minute later), and the retry succeeds", async () => {
    const attempts = await test.ctx.db.select().from(webhookAttempts).orderBy(asc(webhookAttempts.messageId), asc(webhookAttempts.attempt));
    const failedFirst = attempts.filter((attempt) => attempt.attempt === 1 && !attempt.succeeded);
    expect(failedFirst.length).toBeGreaterThan(0);
    for (const first of failedFirst) {
      const second = attempts.find((attempt) => attempt.messageId === first.messageId && attempt.attempt === 2);
      if (!second) continue; // due after the seed's now: the worker's to send
      expect(second.startedAt.getTime() - first.startedAt.getTime()).toBeGreaterThanOrEqual(minute);
      expect(second.succeeded).toBe(true);
    }
  });

  it("keeps each candidate's accepted messages in the history's order", async () => {
    const history = await test.ctx.db.select().from(events).where(eq(events.companyId, companyId)).orderBy(asc(events.txId), asc(events.seq));
    const place = new Map(history.map((event, index) => [event.id, index]));
    const byCandidate = new Map<string, number[]>();
    for (const request of receiver.received) {
      const body = JSON.parse(request.body) as { id: string; candidate: { id: string } };
      if (failsFirstTry(body.id) && request.headers["service-delivery-attempt"] === "1") continue;
      byCandidate.set(body.candidate.id, [...(byCandidate.get(body.candidate.id) ?? []), place.get(body.id)!]);
    }
    expect(byCandidate.size).toBeGreaterThan(10);
    for (const places of byCandidate.values()) expect(places).toEqual([...places].sort((a, b) => a - b));
  });

  it("leaves fan-out nothing to add: every event already has its message", async () => {
    const before = (await test.ctx.db.select({ id: webhookMessages.id }).from(webhookMessages)).length;
    expect((await fanOutCompany(test.ctx, companyId)).created).toBe(0);
    expect((await test.ctx.db.select({ id: webhookMessages.id }).from(webhookMessages)).length).toBe(before);
  });
});
