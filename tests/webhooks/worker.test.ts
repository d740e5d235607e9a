/**
 * The real worker process (`main.ts worker`, as `npm run start:worker` runs
 * it) against a real HTTPS receiver: deliveries end to end, a worker killed
 * with SIGKILL mid-delivery, and a SIGTERM while a delivery is in flight.
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { webhookMessages, webhookQueue, webhooks } from "@/db/schema";
import { submitAttempt } from "@/server/domain/attempts";
import { taskNames } from "@/server/jobs/queue";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { useTestDatabase } from "../support/database";
import { completeSteps, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import { lockJobsAsDeadWorker, queuedJobs } from "../support/jobs";
import { useProcessReceiver } from "../support/receiver";
import { allowReceiver } from "../support/webhook-fixtures";
import { useWorkerProcesses } from "../support/worker-process";

const test = useTestDatabase();
const delivery = useProcessReceiver();
const leaseSeconds = 11;

beforeEach(async () => {
  delivery.receiver.received.length = 0;
  delivery.receiver.answer(() => ({ status: 200 }));
  await test.ctx.db.update(webhooks).set({ enabled: false });
});

const startWorkerProcess = useWorkerProcesses(() => ({
  DATABASE_URL: test.url,
  FILE_STORAGE_DIR: test.filesDir,
  WEBHOOK_ALLOW_TARGETS: delivery.receiver.target,
  WEBHOOK_CA_FILE: delivery.caFile,
  WEBHOOK_ATTEMPT_LEASE_SECONDS: String(leaseSeconds),
}));

async function submittedCandidate(interviewId: string, email: string) {
  const interview = await import("@/server/domain/interviews").then((m) => m.loadInterview(test.ctx.db, interviewId));
  const candidate = await startCandidate(test.ctx, interviewId, { email });
  await completeSteps(test.ctx, interview, candidate.id);
  await scoreAndRecord(test.ctx, candidate.id);
  test.clock.set(new Date());
  await submitAttempt(test.ctx, candidate.id);
  return candidate;
}

async function setup(name: string, eventTypes?: ["candidate.submitted"]) {
  const companyId = await makeCompany(test.ctx, name);
  const interview = await makeInterview(test.ctx, companyId);
  const { id } = await createWebhook(test.ctx, companyId, { url: delivery.receiver.url(), eventTypes }, allowReceiver(delivery.receiver));
  return { companyId, interview, webhookId: id };
}

const messageStatuses = async (webhookId: string) =>
  (await test.ctx.db.select({ status: webhookMessages.status }).from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId))).map((m) => m.status);

describe("the worker process", { timeout: 90_000 }, () => {
  it("delivers events end to end through graphile-worker", async () => {
    await startWorkerProcess();
    const { interview, webhookId } = await setup("EndToEnd");
    await submittedCandidate(interview.id, "e2e@example.com");
    await delivery.receiver.waitFor(3);
    expect(delivery.receiver.received.map((r) => r.headers["service-event-type"])).toEqual(["candidate.submitted", "candidate.scored", "candidate.ready"]);
    await expect.poll(() => messageStatuses(webhookId)).toEqual(["succeeded", "succeeded", "succeeded"]);
  });

  it("delivers again, with the same event id, a message whose worker was killed mid-delivery", async () => {
    const first = await startWorkerProcess();
    const { interview, webhookId } = await setup("Killed", ["candidate.submitted"]);
    delivery.receiver.answer(() => ({ status: 200, delayMs: 5_000 }));
    await submittedCandidate(interview.id, "killed@example.com");
    await delivery.receiver.waitFor(1);
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    delivery.receiver.answer(() => ({ status: 200 }));
    // A restart after the attempt's lease has run out picks the message up at once.
    await new Promise((resolve) => setTimeout(resolve, leaseSeconds * 1000));
    await startWorkerProcess();
    await delivery.receiver.waitFor(2, 30_000);
    expect(delivery.receiver.received).toHaveLength(2);
    expect(delivery.receiver.received[1]!.headers["service-event-id"]).toBe(delivery.receiver.received[0]!.headers["service-event-id"]);
    await expect.poll(() => messageStatuses(webhookId)).toEqual(["succeeded"]);
  });

  it("runs at once the jobs a dead worker left locked, instead of after graphile-worker's 4 hours", async () => {
    const { interview, webhookId } = await setup("DeadWorker");
    await submittedCandidate(interview.id, "dead@example.com");
    await lockJobsAsDeadWorker(test.ctx.db);
    expect((await queuedJobs(test.ctx.db, taskNames.fanOut)).map((job) => job.lockedBy)).toEqual(["worker-killed-a-minute-ago"]);
    await startWorkerProcess();
    await delivery.receiver.waitFor(3, 20_000);
    await expect.poll(() => messageStatuses(webhookId), { timeout: 10_000 }).toEqual(["succeeded", "succeeded", "succeeded"]);
  });

  it("lets an in-flight delivery finish on SIGTERM, then exits cleanly", async () => {
    const worker = await startWorkerProcess();
    const { interview, webhookId } = await setup("Terminated", ["candidate.submitted"]);
    delivery.receiver.answer(() => ({ status: 200, delayMs: 2_000 }));
    await submittedCandidate(interview.id, "term@example.com");
    await delivery.receiver.waitFor(1);
    worker.child.kill("SIGTERM");
    const code = await new Promise((resolve) => worker.child.once("exit", (exitCode) => resolve(exitCode)));
    expect(code).toBe(0);
    expect(await messageStatuses(webhookId)).toEqual(["succeeded"]);
    // Its outcome was recorded before the exit: the message left the queue, no lease is left behind.
    const queued = await test.ctx.db.select().from(webhookQueue).where(eq(webhookQueue.webhookId, webhookId));
    expect(queued).toEqual([]);
  });
});
