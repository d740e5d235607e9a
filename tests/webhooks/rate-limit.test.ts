/**
 * A webhook's rate limit (at most N messages a second, set by its admin):
 * claims take no more than its pace allows, what waits stays in order and is
 * never a failure, the page says when it holds a webhook back, and the limit
 * holds across several real worker processes.
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { webhookAttempts, webhookMessages, webhooks } from "@/db/schema";
import { simulate } from "@/server/demo/simulate";
import { createUser } from "@/server/domain/accounts";
import { sendSample } from "@/server/webhooks/admin/send-sample";
import { createWebhook, updateWebhook } from "@/server/webhooks/admin/webhook-settings";
import { claimDue } from "@/server/webhooks/delivery/claim";
import { deliverDue } from "@/server/webhooks/delivery/dispatcher";
import { webhooksHeldBack } from "@/server/webhooks/delivery/pacing";
import { webhookHealth } from "@/server/webhooks/views/health";
import { useTestDatabase } from "../support/database";
import { makeCompany, makeInterview } from "../support/fixtures";
import { useProcessReceiver } from "../support/receiver";
import { allowReceiver, webhookDeps } from "../support/webhook-fixtures";
import { useWorkerProcesses } from "../support/worker-process";

const test = useTestDatabase();
const delivery = useProcessReceiver();
let companyId: string;
let interviewId: string;

beforeEach(async () => {
  delivery.receiver.received.length = 0;
  delivery.receiver.answer(() => ({ status: 200 }));
  await test.ctx.db.update(webhooks).set({ enabled: false });
  companyId = await makeCompany(test.ctx, "Paced");
  await createUser(test.ctx, { companyId, email: `admin-${companyId}@example.com`, name: "Admin", role: "admin", password: "long enough password" });
  interviewId = (await makeInterview(test.ctx, companyId)).id;
});

describe("a rate limit", () => {
  it("is 1 to 1,000 messages a second, or none, with a clear message otherwise", async () => {
    const addresses = allowReceiver(delivery.receiver);
    for (const wrong of [0, 1001, 2.5, "fast", "-3"]) {
      await expect(createWebhook(test.ctx, companyId, { url: delivery.receiver.url(), rateLimitPerSecond: wrong }, addresses)).rejects.toThrow(
        "The rate limit is a whole number of messages a second from 1 to 1,000, or empty for no limit.",
      );
    }
    const { id } = await createWebhook(test.ctx, companyId, { url: delivery.receiver.url(), rateLimitPerSecond: "25" }, addresses);
    const rateOf = async () => (await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, id)))[0]!.rateLimitPerSecond;
    expect(await rateOf()).toBe(25);
    await updateWebhook(test.ctx, companyId, id, { rateLimitPerSecond: "" }, addresses);
    expect(await rateOf()).toBeNull();
    await updateWebhook(test.ctx, companyId, id, { rateLimitPerSecond: 1000 }, addresses);
    expect(await rateOf()).toBe(1000);
  });

  it("lets a claim take only what the pace allows; the rest waits in order, and waiting is no failure", async () => {
    const { id: webhookId } = await createWebhook(
      test.ctx,
      companyId,
      { url: delivery.receiver.url(), rateLimitPerSecond: 2 },
      allowReceiver(delivery.receiver),
    );
    const samples: string[] = [];
    for (let index = 0; index < 7; index++) samples.push((await sendSample(test.ctx, companyId, webhookId, interviewId)).messageId);
    const deps = webhookDeps(test, delivery.receiver);
    const start = test.clock.now();
    const delivered: string[] = [];
    const round = async () => delivered.push(...(await deliverDue(deps, { limit: 10 })).keys());

    // Idle, it may send a second of its rate at once, then nothing until its pace allows more.
    await round();
    await round();
    expect(delivered).toEqual(samples.slice(0, 2));
    const { paceWakeAt } = await claimDue(test.ctx.db, test.clock.now(), { limit: 10 });
    expect(paceWakeAt?.getTime()).toBe(start.getTime() + 500);

    // Then one every half second, the oldest first, however often it claims.
    for (let sent = 3; sent <= 6; sent++) {
      test.clock.advance(500);
      await round();
      await round();
      expect(delivered).toEqual(samples.slice(0, sent));
    }

    // The waiting one was never tried, and nothing counts against the webhook.
    const waiting = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.id, samples[6]!));
    expect(waiting[0]).toMatchObject({ status: "pending", attemptCount: 0 });
    expect((await test.ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.webhookId, webhookId))).every((attempt) => attempt.succeeded)).toBe(true);
    expect((await webhookHealth(test.handle.sql, companyId, [webhookId], test.clock.now())).get(webhookId)?.state).toBe("healthy");
    await deps.client.close();
  });
});

const startWorkerProcess = useWorkerProcesses(() => ({
  DATABASE_URL: test.url,
  FILE_STORAGE_DIR: test.filesDir,
  WEBHOOK_ALLOW_TARGETS: delivery.receiver.target,
  WEBHOOK_CA_FILE: delivery.caFile,
}));

/**
 * How long the multi-process run counts arrivals: the minute the limit is
 * promised over. A shorter window would count the one second's worth a paced
 * webhook may send at once after a pause (claim.ts) as 5% of 20 seconds.
 */
const windowSeconds = Number(process.env.TEST_RATE_LIMIT_WINDOW_SECONDS ?? 60);

describe("a rate limit across worker processes", { timeout: 240_000 }, () => {
  it("holds within 5% with three workers, keeps every candidate's order, and shows on the page while it holds a webhook back", async () => {
    const rate = 50;
    const { id: webhookId } = await createWebhook(
      test.ctx,
      companyId,
      { url: delivery.receiver.url("/paced"), rateLimitPerSecond: rate },
      allowReceiver(delivery.receiver),
    );
    // More than the window can take at the limit (about 2.6 events per candidate).
    await simulate(test.ctx, { companyId, interviews: 0, candidates: Math.ceil((rate * (windowSeconds + 5)) / 2.4), bulk: true, seed: 5 });
    await Promise.all([startWorkerProcess(), startWorkerProcess(), startWorkerProcess()]);

    const arrivalsAt = async (count: number) => {
      await expect.poll(() => delivery.receiver.received.length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(count);
      return delivery.receiver.received[count - 1]!.at;
    };
    // Counted from the 20th arrival, once every worker is up and the first burst is past.
    const from = await arrivalsAt(20);
    expect(await webhooksHeldBack(test.handle.sql, [webhookId])).toEqual(new Set([webhookId]));
    await new Promise((resolve) => setTimeout(resolve, windowSeconds * 1000 - (Date.now() - from)));
    const counted = delivery.receiver.received.filter((request) => request.at > from && request.at <= from + windowSeconds * 1000).length;
    expect(counted).toBeGreaterThanOrEqual(rate * windowSeconds * 0.95);
    expect(counted).toBeLessThanOrEqual(rate * windowSeconds * 1.05);

    // Every candidate's events arrived in the history's order.
    const history = await test.handle.sql<Array<{ id: string }>>`select id from events where company_id = ${companyId} order by tx_id, seq`;
    const place = new Map(history.map((event, index) => [event.id, index]));
    const last = new Map<string, number>();
    let outOfOrder = 0;
    for (const request of delivery.receiver.received) {
      const body = JSON.parse(request.body) as { id: string; candidate: { id: string } };
      if ((place.get(body.id) ?? 0) < (last.get(body.candidate.id) ?? -1)) outOfOrder++;
      last.set(body.candidate.id, place.get(body.id)!);
    }
    expect(outOfOrder).toBe(0);
  });
});
