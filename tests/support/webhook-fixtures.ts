/** Webhook services wired to a test database, a test receiver and a recording mailer. */

import { createHmac, timingSafeEqual } from "node:crypto";
import { asc, eq, ne } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { webhookMessages, webhookQueue, webhooks } from "@/db/schema";
import { type FanOutPayload, type SendEmailPayload, taskNames } from "@/server/jobs/queue";
import type { AddressOptions } from "@/server/webhooks/admin/webhook-settings";
import { createDeliveryClient } from "@/server/webhooks/delivery/delivery-client";
import type { WorkerDeps } from "@/worker/deps";
import type { TestDatabase } from "./database";
import { clearJobs, queuedJobs } from "./jobs";
import { assertQueueInvariants } from "./queue-invariants";
import { type Receiver, startReceiver } from "./receiver";

export type SentEmail = { to: string[]; subject: string; text: string };

/** Saves webhooks to the receiver's exact host:port, as WEBHOOK_ALLOW_TARGETS would allow it in a deployment. */
export function allowReceiver(receiver: Receiver): AddressOptions {
  return { allowTargets: [receiver.target] };
}

export function webhookDeps(test: TestDatabase, receiver: Receiver): WorkerDeps & { sent: SentEmail[] } {
  const sent: SentEmail[] = [];
  return {
    ctx: test.ctx,
    sql: test.handle.sql,
    client: createDeliveryClient({ allowTargets: [receiver.target], extraCa: receiver.ca }),
    mailer: { send: async (message) => void sent.push(message) },
    sent,
  };
}

/** Ids of the messages the claim may take once due (chain heads and samples), in the order it takes them when all are due. */
export async function readyMessageIds(deps: WorkerDeps): Promise<string[]> {
  const rows = await deps.ctx.db
    .select({ id: webhookQueue.messageId })
    .from(webhookQueue)
    .where(ne(webhookQueue.state, "held"))
    .orderBy(asc(webhookQueue.dueAt), asc(webhookQueue.position));
  return rows.map((row) => row.id);
}

/** An independent check of `Service-Signature`, written from spec 5.1, not from our code. */
export function verifySignature(header: string, rawBody: string, secret: string): { timestamp: number; valid: boolean; values: number } {
  const parts = header.split(",").map((part) => part.split("="));
  const timestamp = Number(parts.find(([name]) => name === "t")?.[1]);
  const values = parts.filter(([name]) => name === "v1").map(([, value]) => value!);
  const expected = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest();
  const valid = values.some((value) => {
    const given = Buffer.from(value, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return { timestamp, valid, values: values.length };
}

/**
 * Runs the background work as the worker would, on a clock the test moves:
 * queued fan-out and email jobs first (always due), then the dispatcher's
 * claims one message at a time, oldest first, while any is due on the test
 * clock, until nothing is left. Returns `id:outcome` per delivery. (Tests of
 * the real worker run the worker process itself.)
 */
export async function pump(deps: WorkerDeps): Promise<string[]> {
  const { fanOutCompany } = await import("@/server/webhooks/delivery/fan-out");
  const { deliverDue } = await import("@/server/webhooks/delivery/dispatcher");
  const { sendQueuedEmail } = await import("@/server/notifications/email");
  const outcomes: string[] = [];
  for (let round = 0; round < 1000; round++) {
    const [job] = (await queuedJobs<Partial<FanOutPayload & SendEmailPayload>>(deps.ctx.db))
      .filter((queued) => queued.task === taskNames.fanOut || queued.task === taskNames.sendEmail)
      .sort((a, b) => (a.task === b.task ? 0 : a.task === taskNames.fanOut ? -1 : 1) || Number(a.id) - Number(b.id));
    if (job) {
      await clearJobs(deps.ctx.db, [job.id]);
      if (job.task === taskNames.fanOut) await fanOutCompany(deps.ctx, job.payload.companyId!);
      else await sendQueuedEmail(deps.ctx, deps.mailer, job.payload.emailId!);
      continue;
    }
    const delivered = await deliverDue(deps, { limit: 1 });
    if (delivered.size === 0) return outcomes;
    for (const [id, outcome] of delivered) outcomes.push(`${id}:${outcome}`);
  }
  throw new Error("pump: work keeps coming");
}

/**
 * A receiver and webhook services for a test file. Each test starts with no
 * queued job, no waiting message and no other enabled webhook, and the
 * receiver answers 200; after each, the queue's invariants are checked
 * (queue-invariants.ts).
 */
export function useWebhookTestbed(test: TestDatabase) {
  const bed = {} as { receiver: Receiver; deps: ReturnType<typeof webhookDeps> };
  beforeAll(async () => {
    bed.receiver = await startReceiver();
    bed.deps = webhookDeps(test, bed.receiver);
  });
  afterAll(async () => {
    await bed.deps.client.close();
    await bed.receiver.close();
  });
  beforeEach(async () => {
    await clearJobs(test.ctx.db);
    await test.ctx.db.update(webhookMessages).set({ status: "failed" }).where(eq(webhookMessages.status, "pending"));
    await test.ctx.db.delete(webhookQueue);
    await test.ctx.db.update(webhooks).set({ enabled: false });
    bed.receiver.received.length = 0;
    bed.receiver.answer(() => ({ status: 200, body: "ok" }));
    bed.deps.sent.length = 0;
  });
  afterEach(async () => {
    await assertQueueInvariants(test.ctx.db);
  });
  return bed;
}
