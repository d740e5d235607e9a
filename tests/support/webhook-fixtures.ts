/** Webhook services wired to a test database, a test receiver and a recording mailer. */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { webhooks } from "@/db/schema";
import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "@/server/env";
import { createDeliveryClient } from "@/server/webhooks/delivery-client";
import type { WebhookDeps } from "@/server/webhooks/deps";
import type { TestDatabase } from "./database";
import { type Receiver, startReceiver } from "./receiver";

export type SentEmail = { to: string[]; subject: string; text: string };

/** Allows the receiver's exact host:port, as WEBHOOK_ALLOW_TARGETS would in a deployment. */
export function allowReceiver(receiver: Receiver) {
  if (!env.WEBHOOK_ALLOW_TARGETS.includes(receiver.target)) env.WEBHOOK_ALLOW_TARGETS.push(receiver.target);
}

export function webhookDeps(test: TestDatabase, receiver: Receiver): WebhookDeps & { sent: SentEmail[] } {
  allowReceiver(receiver);
  const sent: SentEmail[] = [];
  return {
    ctx: test.ctx,
    sql: test.handle.sql,
    client: createDeliveryClient({ allowTargets: env.WEBHOOK_ALLOW_TARGETS, extraCa: receiver.ca }),
    mailer: { send: async (message) => void sent.push(message) },
    sent,
  };
}

/** Ids of messages whose delivery job is queued, oldest first (what the worker would run). */
export async function queuedMessageIds(deps: WebhookDeps): Promise<string[]> {
  const rows = await deps.ctx.db.execute<{ id: string }>(sql`
    select j.payload->>'messageId' as id from graphile_worker._private_jobs j
    join graphile_worker._private_tasks t on t.id = j.task_id
    where t.identifier = 'deliver-webhook-message' order by j.id`);
  return [...rows].map((row) => row.id);
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
 * Runs the queued fan-out jobs (enqueued with the database's clock, always
 * due) and the delivery jobs due on the test clock, oldest first, until none
 * is left: the worker's job on a clock the test
 * moves. (Tests of the real worker run graphile-worker itself.)
 */
export async function pump(deps: WebhookDeps): Promise<string[]> {
  const { fanOutEvents } = await import("@/server/webhooks/fan-out");
  const { deliverMessage } = await import("@/server/webhooks/deliver");
  const outcomes: string[] = [];
  for (let round = 0; round < 1000; round++) {
    const [job] = [
      ...(await deps.ctx.db.execute<{ id: string; task: string; payload: { eventIds?: string[]; messageId?: string } }>(sql`
        select j.id, t.identifier as task, j.payload from graphile_worker._private_jobs j
        join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = 'fan-out-events'
           or (t.identifier = 'deliver-webhook-message' and j.run_at <= ${deps.ctx.clock.now().toISOString()}::timestamptz)
        order by t.identifier <> 'fan-out-events', j.run_at, j.id limit 1`)),
    ];
    if (!job) return outcomes;
    await deps.ctx.db.execute(sql`delete from graphile_worker._private_jobs where id = ${job.id}`);
    if (job.task === "fan-out-events") await fanOutEvents(deps.ctx, job.payload.eventIds!);
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
    await test.ctx.db.execute(sql`delete from graphile_worker._private_jobs`);
    await test.ctx.db.update(webhooks).set({ enabled: false });
    bed.receiver.received.length = 0;
    bed.receiver.answer(() => ({ status: 200, body: "ok" }));
    bed.deps.sent.length = 0;
  });
  return bed;
}
