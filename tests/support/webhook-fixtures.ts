/** Webhook services wired to a test database, a test receiver and a recording mailer. */

import { createHmac, timingSafeEqual } from "node:crypto";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { webhooks } from "@/db/schema";
import { type DeliverPayload, type FanOutPayload, type SendEmailPayload, taskNames } from "@/server/jobs/queue";
import { createDeliveryClient } from "@/server/webhooks/delivery-client";
import type { AddressOptions } from "@/server/webhooks/manage";
import type { WorkerDeps } from "@/worker/deps";
import type { TestDatabase } from "./database";
import { clearJobs, queuedJobs } from "./jobs";
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

/** Ids of messages whose delivery job is queued, oldest first (what the worker would run). */
export async function queuedMessageIds(deps: WorkerDeps): Promise<string[]> {
  return (await queuedJobs<DeliverPayload>(deps.ctx.db, taskNames.deliver)).map((job) => job.payload.messageId);
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
 * Runs the queued jobs as the worker would, on a clock the test moves: fan-out
 * and email jobs are always due, delivery jobs when the test clock reaches
 * them, fan-out first, then oldest first, until none is left. (Tests of the
 * real worker run graphile-worker itself.)
 */
export async function pump(deps: WorkerDeps): Promise<string[]> {
  const { fanOutCompany } = await import("@/server/webhooks/fan-out");
  const { deliverMessage } = await import("@/server/webhooks/deliver");
  const { sendQueuedEmail } = await import("@/server/notifications/email");
  const rank = (task: string) => [taskNames.fanOut, taskNames.sendEmail, taskNames.deliver].indexOf(task as never);
  const outcomes: string[] = [];
  for (let round = 0; round < 1000; round++) {
    const due = (await queuedJobs<Partial<FanOutPayload & DeliverPayload & SendEmailPayload>>(deps.ctx.db))
      .filter((job) => job.task !== taskNames.deliver || job.runAt <= deps.ctx.clock.now())
      .sort((a, b) => rank(a.task) - rank(b.task) || a.runAt.getTime() - b.runAt.getTime() || Number(a.id) - Number(b.id));
    const job = due[0];
    if (!job) return outcomes;
    await clearJobs(deps.ctx.db, [job.id]);
    // A fan-out follow-up waits for older transactions (on this shared server) to end.
    const followUpIn = job.runAt.getTime() - Date.now();
    if (job.task === taskNames.fanOut && followUpIn > 0) await new Promise((resolve) => setTimeout(resolve, followUpIn));
    if (job.task === taskNames.fanOut) await fanOutCompany(deps.ctx, job.payload.companyId!);
    else if (job.task === taskNames.sendEmail) await sendQueuedEmail(deps.ctx, deps.mailer, job.payload.emailId!);
    else outcomes.push(`${job.payload.messageId}:${await deliverMessage(deps, job.payload.messageId!)}`);
  }
  throw new Error("pump: jobs keep coming");
}

/**
 * A receiver and webhook services for a test file. Each test starts with no
 * queued job and no other enabled webhook, and the receiver answers 200.
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
    await test.ctx.db.update(webhooks).set({ enabled: false });
    bed.receiver.received.length = 0;
    bed.receiver.answer(() => ({ status: 200, body: "ok" }));
    bed.deps.sent.length = 0;
  });
  return bed;
}
