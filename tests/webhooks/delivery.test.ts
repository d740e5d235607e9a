/** Signed delivery, latest data, retries on the spec's schedule, ordering, failure policy, rotation. */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { JobHelpers } from "graphile-worker";
import { beforeEach, describe, expect, it } from "vitest";
import { createDatabase } from "@/db/client";
import { candidates, type EventType, emails, events, webhookAttempts, webhookMessages, webhookQueue, webhooks } from "@/db/schema";
import { createUser } from "@/server/domain/accounts";
import { saveScore, storeRecording } from "@/server/domain/ai-interview";
import { submitAttempt } from "@/server/domain/attempts";
import { changeStatus } from "@/server/domain/statuses";
import { type FanOutPayload, type SendEmailPayload, taskNames } from "@/server/jobs/queue";
import { sendQueuedEmail } from "@/server/notifications/email";
import { databaseGauges } from "@/server/observability/database-gauges";
import { backfill } from "@/server/webhooks/admin/backfill";
import { resendMessage } from "@/server/webhooks/admin/resend";
import { sendSample } from "@/server/webhooks/admin/send-sample";
import { setWebhookEnabled } from "@/server/webhooks/admin/set-webhook-enabled";
import { rotateWebhookSecret } from "@/server/webhooks/admin/webhook-secret";
import { createWebhook, deleteWebhook, updateWebhook } from "@/server/webhooks/admin/webhook-settings";
import { attemptDelivery } from "@/server/webhooks/delivery/attempt";
import { claimDue, leaseMs } from "@/server/webhooks/delivery/claim";
import { deliverDue, startDispatcher } from "@/server/webhooks/delivery/dispatcher";
import { applyFailurePolicy } from "@/server/webhooks/delivery/failure-policy";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import { runWebhookMaintenance } from "@/server/webhooks/delivery/maintenance";
import { eventMessage } from "@/server/webhooks/delivery/messages";
import { enqueueMessages } from "@/server/webhooks/delivery/queue";
import { recordOutcomes } from "@/server/webhooks/delivery/record";
import { retryDelaysMs } from "@/server/webhooks/delivery/retry-schedule";
import { eventGoneReason, webhookOffReason } from "@/server/webhooks/delivery/unsent-reasons";
import { fanOutEvents } from "@/worker/tasks/fan-out-events";
import { useTestDatabase } from "../support/database";
import { completeSteps, makeCompany, makeInterview, recording, score, scoreAndRecord, startCandidate } from "../support/fixtures";
import { clearJobs, queuedJobs } from "../support/jobs";
import { allowReceiver, pump, readyMessageIds, useWebhookTestbed, verifySignature } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);
let companyId: string;
let interview: Awaited<ReturnType<typeof makeInterview>>;

beforeEach(async () => {
  companyId = await makeCompany(test.ctx, "Acme");
  await createUser(test.ctx, { companyId, email: `admin-${companyId}@example.com`, name: "Admin", role: "admin", password: "long enough password" });
  interview = await makeInterview(test.ctx, companyId);
});

/** A candidate who finished every step and has a score and recording, not yet submitted. */
async function readyCandidate(email = "ada@example.com") {
  const candidate = await startCandidate(test.ctx, interview.id, { email });
  await completeSteps(test.ctx, interview, candidate.id);
  await scoreAndRecord(test.ctx, candidate.id, 80);
  return candidate;
}

/** Sessions of this test's database waiting for a lock another holds. */
const waitingOnLocks = async () =>
  [
    ...(await test.ctx.db.execute<{ waiting: number }>(
      sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )),
  ][0]!.waiting;

/** A webhook for these event types and a candidate submitted since (fan-out not run yet). */
async function webhookWithSubmission(eventTypes: EventType[] = ["candidate.submitted"]) {
  const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url(), eventTypes }, allowReceiver(bed.receiver));
  const candidate = await readyCandidate();
  await submitAttempt(test.ctx, candidate.id);
  return { webhookId, candidate };
}

/** The same, fanned out: the webhook's one message. */
async function fannedOutMessage() {
  const { webhookId, candidate } = await webhookWithSubmission();
  await fanOutCompany(test.ctx, companyId);
  const [message] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
  return { webhookId, candidate, message: message! };
}

/** One dispatcher round (claim, send, record): the outcome of the message given. */
const deliverRound = async (messageId: string, deps = bed.deps) => (await deliverDue(deps, { limit: 10 })).get(messageId);

const bodies = () =>
  bed.receiver.received.map(
    (request) => JSON.parse(request.body) as { id: string; type: string; candidate: { id: string; status: string }; change: unknown; test: boolean },
  );

describe("a delivery", () => {
  it("is a signed POST of the Event, with the exact bytes signed and the spec's headers", async () => {
    const { id: webhookId, secret } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    const candidate = await readyCandidate();
    await submitAttempt(test.ctx, candidate.id);
    await pump(bed.deps);
    expect(bed.receiver.received).toHaveLength(3);
    const [first] = bed.receiver.received;
    const body = JSON.parse(first!.body);
    expect(first!.method).toBe("POST");
    expect(first!.headers["content-type"]).toBe("application/json");
    expect(first!.headers["user-agent"]).toMatch(/^InterviewAPI-Webhooks\//);
    expect(first!.headers["service-event-id"]).toBe(body.id);
    expect(first!.headers["service-event-type"]).toBe(body.type);
    expect(first!.headers["service-delivery-attempt"]).toBe("1");
    const signature = verifySignature(first!.headers["service-signature"] as string, first!.body, secret);
    expect(signature).toMatchObject({ valid: true, values: 1 });
    expect(Math.abs(signature.timestamp - test.clock.now().getTime() / 1000)).toBeLessThan(2);
    expect(Object.keys(body).sort()).toEqual(["api_version", "candidate", "change", "created_at", "id", "test", "type"]);
    expect(body).toMatchObject({ api_version: "v1", test: false, change: null, candidate: { id: candidate.id } });
    expect(body.candidate).not.toHaveProperty("transcript");
    expect(bodies().map((b) => b.type)).toEqual(["candidate.submitted", "candidate.scored", "candidate.ready"]);
    const [attempt] = await test.ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.webhookId, webhookId)).limit(1);
    expect(JSON.stringify(attempt)).not.toContain(secret);
    expect((await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, webhookId)))[0]!.secretCiphertext).not.toContain(secret.slice(6));
  });

  it("carries the candidate's latest data, with the change frozen", async () => {
    await createWebhook(test.ctx, companyId, { url: bed.receiver.url(), eventTypes: ["candidate.status_changed"] }, allowReceiver(bed.receiver));
    const candidate = await readyCandidate();
    await submitAttempt(test.ctx, candidate.id);
    await changeStatus(test.ctx, candidate.id, { to: "on_hold", by: { type: "team", name: "Ana" } });
    await changeStatus(test.ctx, candidate.id, { to: "shortlisted", by: { type: "team", name: "Ana" } });
    await pump(bed.deps);
    expect(bodies().map((b) => [b.change, b.candidate.status])).toEqual([
      [{ from: "passed", to: "on_hold", by: { type: "team", name: "Ana" } }, "shortlisted"],
      [{ from: "on_hold", to: "shortlisted", by: { type: "team", name: "Ana" } }, "shortlisted"],
    ]);
  });

  it("goes only to enabled webhooks for the event's type and interview", async () => {
    const other = await makeInterview(test.ctx, companyId, { title: "Other" });
    await createWebhook(test.ctx, companyId, { url: bed.receiver.url("/ready"), eventTypes: ["candidate.ready"] }, allowReceiver(bed.receiver));
    await createWebhook(test.ctx, companyId, { url: bed.receiver.url("/other"), interviewIds: [other.id] }, allowReceiver(bed.receiver));
    const { id: off } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url("/off") }, allowReceiver(bed.receiver));
    await setWebhookEnabled(test.ctx, companyId, off, false);
    const candidate = await readyCandidate();
    await submitAttempt(test.ctx, candidate.id);
    await pump(bed.deps);
    expect(bed.receiver.received.map((r) => r.path)).toEqual(["/ready"]);

    await setWebhookEnabled(test.ctx, companyId, off, true);
    await changeStatus(test.ctx, candidate.id, { to: "rejected", by: { type: "team", name: "Ana" } });
    await pump(bed.deps);
    expect(bed.receiver.received.map((r) => r.path)).toEqual(["/ready", "/off"]);
  });
});

describe("failures", () => {
  it("are retried after 1, 5 and 30 minutes, 2, 6, 12, 24 and 24 hours: 9 tries, then failed", async () => {
    const { id: webhookId } = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url(), eventTypes: ["candidate.submitted"] },
      allowReceiver(bed.receiver),
    );
    bed.receiver.answer(() => ({ status: 503, body: "down" }));
    const candidate = await readyCandidate();
    await submitAttempt(test.ctx, candidate.id);
    const start = test.clock.now().getTime();
    await pump(bed.deps);
    const tries = [start];
    for (const delay of retryDelaysMs) {
      test.clock.advance(delay - 1000);
      await pump(bed.deps);
      expect(bed.receiver.received).toHaveLength(tries.length);
      test.clock.advance(1000);
      await pump(bed.deps);
      tries.push(test.clock.now().getTime());
      expect(bed.receiver.received).toHaveLength(tries.length);
    }
    expect(bed.receiver.received.map((r) => r.headers["service-delivery-attempt"])).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    expect(new Set(bed.receiver.received.map((r) => r.headers["service-event-id"])).size).toBe(1);
    const [message] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
    expect(message).toMatchObject({ status: "failed", attemptCount: 9 });
    const attempts = await test.ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.messageId, message!.id));
    expect(attempts.map((a) => [a.errorClass, a.responseStatus, a.responseBody])).toEqual(Array(9).fill(["http_status", 503, "down"]));
    test.clock.advance(7 * 24 * 3600_000);
    await pump(bed.deps);
    expect(bed.receiver.received).toHaveLength(9);
  });

  it("email the admins once after a day, and turn the webhook off after 3 days", async () => {
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    bed.receiver.answer(() => ({ status: 500 }));
    const hour = 3600_000;
    const waiting = await readyCandidate("waiting@example.com");
    await submitAttempt(test.ctx, waiting.id);
    await pump(bed.deps);
    for (let elapsed = 0; elapsed < 71; elapsed++) {
      test.clock.advance(hour);
      await pump(bed.deps);
      await runWebhookMaintenance(bed.deps);
      const kinds = bed.deps.sent.map((email) => email.subject);
      if (elapsed < 23) expect(kinds, `after ${elapsed + 1} h`).toEqual([]);
      if (elapsed >= 24) expect(kinds, `after ${elapsed + 1} h`).toEqual(["A webhook has been failing for a day"]);
    }
    expect((await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, webhookId)))[0]!.enabled).toBe(true);
    // A later event is still waiting when the 3 days are up.
    const late = await readyCandidate("late@example.com");
    await submitAttempt(test.ctx, late.id);
    test.clock.advance(2 * hour);
    await pump(bed.deps);
    await runWebhookMaintenance(bed.deps);
    const [webhook] = await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, webhookId));
    expect(webhook).toMatchObject({ enabled: false, disabledReason: "No successful delivery for 3 days" });
    expect(bed.deps.sent.map((email) => email.subject)).toEqual([
      "A webhook has been failing for a day",
      "A webhook was turned off after 3 days of failed deliveries",
    ]);
    expect(bed.deps.sent[0]!.to).toEqual([`admin-${companyId}@example.com`.toLowerCase()]);
    const pending = await test.ctx.db
      .select()
      .from(webhookMessages)
      .where(and(eq(webhookMessages.webhookId, webhookId), eq(webhookMessages.status, "pending")));
    expect(pending).toEqual([]);
    expect(await test.ctx.db.select().from(emails).where(eq(emails.companyId, companyId))).toHaveLength(2);
  });

  it("count a redirect as a failure and never follow it", async () => {
    const { id: webhookId } = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url(), eventTypes: ["candidate.submitted"] },
      allowReceiver(bed.receiver),
    );
    bed.receiver.answer((request) => (request.path === "/hook" ? { status: 302, headers: { Location: bed.receiver.url("/elsewhere") } } : { status: 200 }));
    const candidate = await readyCandidate();
    await submitAttempt(test.ctx, candidate.id);
    await pump(bed.deps);
    expect(bed.receiver.received.map((r) => r.path)).toEqual(["/hook"]);
    const [attempt] = await test.ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.webhookId, webhookId));
    expect(attempt).toMatchObject({ errorClass: "redirect", responseStatus: 302, succeeded: false });
  });
});

describe("ordering", () => {
  it("holds a candidate's later messages behind one waiting for a retry, but not other candidates'", async () => {
    await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    const first = await readyCandidate("first@example.com");
    const second = await readyCandidate("second@example.com");
    let failFirst = true;
    bed.receiver.answer((request) => {
      const body = JSON.parse(request.body);
      if (body.candidate.id === first.id && failFirst) return { status: 500 };
      return { status: 200 };
    });
    await submitAttempt(test.ctx, first.id);
    await submitAttempt(test.ctx, second.id);
    await pump(bed.deps);
    const seen = () => bodies().map((b) => `${b.candidate.id === first.id ? "first" : "second"}:${b.type}`);
    expect(seen()).toEqual(["first:candidate.submitted", "second:candidate.submitted", "second:candidate.scored", "second:candidate.ready"]);
    failFirst = false;
    test.clock.advance(60_000);
    await pump(bed.deps);
    expect(seen().slice(4)).toEqual(["first:candidate.submitted", "first:candidate.scored", "first:candidate.ready"]);
  });
});

/** A webhook for status changes only, and two candidates who submitted (their status changes are what the fan-out tests race on). */
async function twoSubmittedForStatusChanges() {
  await createWebhook(test.ctx, companyId, { url: bed.receiver.url(), eventTypes: ["candidate.status_changed"] }, allowReceiver(bed.receiver));
  const candidates = [await readyCandidate("first@example.com"), await readyCandidate("second@example.com")] as const;
  for (const candidate of candidates) await submitAttempt(test.ctx, candidate.id);
  return candidates;
}

/** Which of `candidateIds` have a message for their change to on hold, sorted. */
async function putOnHoldFannedOut(candidateIds: string[]) {
  const rows = await test.handle.sql<Array<{ candidate_id: string }>>`
    select m.candidate_id from webhook_messages m join events e on e.id = m.event_id
    where e.change ->> 'to' = 'on_hold' and m.candidate_id in ${test.handle.sql(candidateIds)}`;
  return rows.map((row) => row.candidate_id).sort();
}

/**
 * Locks the company's fan-out position row, as a run moving it does: runs that move it wait until `release()`
 * (which may be called again, so a `finally` lets go of it however the test ends).
 */
async function lockFanOutPosition() {
  const session = await test.handle.sql.reserve();
  await session`begin`;
  await session`select from fan_out_positions where company_id = ${companyId} for update`;
  let held = true;
  return {
    release: async () => {
      if (!held) return;
      held = false;
      await session`commit`;
      session.release();
    },
  };
}

describe("ordering when fan-out runs out of order", () => {
  it("keeps the events' order however many fan-out runs overlap, in whatever order", async () => {
    await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url(), eventTypes: ["candidate.submitted", "candidate.status_changed"] },
      allowReceiver(bed.receiver),
    );
    const candidate = await readyCandidate();
    await submitAttempt(test.ctx, candidate.id);
    await changeStatus(test.ctx, candidate.id, { to: "rejected", by: { type: "team", name: "Ana" } });
    const jobs = await queuedJobs<FanOutPayload>(test.ctx.db, taskNames.fanOut);
    expect(jobs.map((job) => job.payload.companyId)).toEqual([companyId, companyId]);
    await clearJobs(test.ctx.db);
    // The later transaction's job first, and both at once: each run takes the
    // history from the company's position, in history order.
    const runs = await Promise.all(jobs.reverse().map((job) => fanOutCompany(test.ctx, job.payload.companyId)));
    expect(runs.map((run) => run.created).sort()).toEqual([0, 2]);
    await pump(bed.deps);
    expect(bodies().map((body) => body.type)).toEqual(["candidate.submitted", "candidate.status_changed"]);
  });

  it("runs one fan-out per company at a time in a process: a job for it meanwhile has that run go once more, and ends", async () => {
    const [first, second] = await twoSubmittedForStatusChanges();
    await fanOutCompany(test.ctx, companyId);
    await changeStatus(test.ctx, first.id, { to: "on_hold", by: { type: "team", name: "Ana" } });
    await clearJobs(test.ctx.db);
    const fanOut = fanOutEvents({ ctx: test.ctx });
    // The first job's run waits to move the position...
    const position = await lockFanOutPosition();
    try {
      const firstJob = fanOut({ companyId }, {} as JobHelpers);
      await expect.poll(waitingOnLocks, { timeout: 5_000 }).toBe(1);
      // ...when another event comes, and its job ends at once, without a run of its own.
      await changeStatus(test.ctx, second.id, { to: "on_hold", by: { type: "team", name: "Ana" } });
      const secondJob = Promise.resolve(fanOut({ companyId }, {} as JobHelpers)).then(() => "ended");
      expect(await Promise.race([secondJob, new Promise((resolve) => setTimeout(resolve, 3_000, "still running"))])).toBe("ended");
      expect(await waitingOnLocks()).toBe(1);
      await position.release();
      await firstJob;
    } finally {
      await position.release();
    }
    // The first run went once more, for the second event.
    expect(await putOnHoldFannedOut([first.id, second.id])).toEqual([first.id, second.id].sort());
  });

  it("asks for a fan-out job of its own for the jobs folded into a run that fails", async () => {
    await createWebhook(test.ctx, companyId, { url: bed.receiver.url(), eventTypes: ["candidate.status_changed"] }, allowReceiver(bed.receiver));
    const candidate = await readyCandidate("folded@example.com");
    await submitAttempt(test.ctx, candidate.id);
    await fanOutCompany(test.ctx, companyId);
    await changeStatus(test.ctx, candidate.id, { to: "on_hold", by: { type: "team", name: "Ana" } });
    await clearJobs(test.ctx.db);
    const fanOut = fanOutEvents({ ctx: test.ctx });
    const position = await lockFanOutPosition();
    try {
      const failing = Promise.resolve(fanOut({ companyId }, {} as JobHelpers)).then(
        () => "done",
        () => "failed",
      );
      await expect.poll(waitingOnLocks, { timeout: 5_000 }).toBe(1);
      await fanOut({ companyId }, {} as JobHelpers);
      // The run's statement is cancelled as it waits (a statement timeout, a database going away).
      await test.handle.sql`select pg_cancel_backend(pid) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
      expect(await failing).toBe("failed");
    } finally {
      await position.release();
    }
    // The failed job is tried again later by graphile-worker; the job folded into it has ended, so a new one is asked for.
    expect((await queuedJobs<FanOutPayload>(test.ctx.db, taskNames.fanOut)).map((job) => job.payload.companyId)).toEqual([companyId]);
    expect((await fanOutCompany(test.ctx, companyId)).created).toBe(1);
  });

  it("stops a run that another moved the position past (every event it read fanned out), leaving a later event to its own job", async () => {
    const [first, second] = await twoSubmittedForStatusChanges();
    await changeStatus(test.ctx, first.id, { to: "on_hold", by: { type: "team", name: "Ana" } });
    await fanOutCompany(test.ctx, companyId);
    await changeStatus(test.ctx, first.id, { to: "shortlisted", by: { type: "team", name: "Ana" } });
    await clearJobs(test.ctx.db);
    // Two runs read that one event while the position's row is locked, so both wait to move it...
    const position = await lockFanOutPosition();
    try {
      const runs = Promise.all([fanOutCompany(test.ctx, companyId), fanOutCompany(test.ctx, companyId)]);
      await expect.poll(waitingOnLocks, { timeout: 5_000 }).toBe(2);
      // ...and another event is written, with its job, before they may.
      await changeStatus(test.ctx, second.id, { to: "on_hold", by: { type: "team", name: "Ana" } });
      await position.release();
      // One run fans the event out; the other finds the position at its last event and stops, without reading again.
      expect((await runs).map((run) => run.created).sort()).toEqual([0, 1]);
    } finally {
      await position.release();
    }
    const [later] = await test.handle.sql<[{ fanned_out: boolean }]>`
      select exists (select from webhook_messages m where m.event_id = e.id) as fanned_out from events e
      where e.candidate_id = ${second.id} and e.type = 'candidate.status_changed'`;
    expect(later!.fanned_out).toBe(false);
    expect((await queuedJobs<FanOutPayload>(test.ctx.db, taskNames.fanOut)).map((job) => job.payload.companyId)).toEqual([companyId]);
    expect((await fanOutCompany(test.ctx, companyId)).created).toBe(1);
  });
  it("reads again when the run that moved the position first stopped short of its last event, and fans the rest out", async () => {
    const [first, second] = await twoSubmittedForStatusChanges();
    await fanOutCompany(test.ctx, companyId);
    await changeStatus(test.ctx, first.id, { to: "on_hold", by: { type: "team", name: "Ana" } });
    const position = await lockFanOutPosition();
    try {
      // The earlier run reads the first event only and waits to move the position; the later one reads both.
      const earlier = fanOutCompany(test.ctx, companyId);
      await expect.poll(waitingOnLocks, { timeout: 5_000 }).toBe(1);
      await changeStatus(test.ctx, second.id, { to: "on_hold", by: { type: "team", name: "Ana" } });
      // No job of the second event's own: only the later run can fan it out.
      await clearJobs(test.ctx.db);
      const later = fanOutCompany(test.ctx, companyId);
      await expect.poll(waitingOnLocks, { timeout: 5_000 }).toBe(2);
      await position.release();
      // The earlier run, first in line, moves the position to the first event; the later one finds it short of its last, reads again, and fans the second out.
      expect([(await earlier).created, (await later).created]).toEqual([1, 1]);
    } finally {
      await position.release();
    }
    expect(await putOnHoldFannedOut([first.id, second.id])).toEqual([first.id, second.id].sort());
  });
});

describe("turning a webhook off", () => {
  it("fails its waiting messages for good, even one whose attempt was in flight", async () => {
    const { id: webhookId } = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url(), eventTypes: ["candidate.submitted"] },
      allowReceiver(bed.receiver),
    );
    bed.receiver.answer(() => ({ status: 500, delayMs: 300 }));
    const candidate = await readyCandidate();
    await submitAttempt(test.ctx, candidate.id);
    await clearJobs(test.ctx.db);
    await fanOutCompany(test.ctx, companyId);
    const [message] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
    const attempt = deliverRound(message!.id);
    await bed.receiver.waitFor(1);
    await setWebhookEnabled(test.ctx, companyId, webhookId, false);
    expect(await attempt).toBe("gone");
    const [after] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.id, message!.id));
    expect(after).toMatchObject({ status: "failed" });
    await pump(bed.deps);
    test.clock.advance(24 * 3600_000);
    await pump(bed.deps);
    expect(bed.receiver.received).toHaveLength(1);
    expect((await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.id, message!.id)))[0]!.status).toBe("failed");
    await expect(sendSample(test.ctx, companyId, webhookId, interview.id)).rejects.toThrow("Turn the webhook on before sending a sample.");
  });
});

describe("secrets and addresses", () => {
  it("sign with both secrets for 24 hours after a replacement, then with the new one only", async () => {
    const { id, secret: old } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    const { secret: fresh } = await rotateWebhookSecret(test.ctx, companyId, id);
    const candidate = await readyCandidate("one@example.com");
    await submitAttempt(test.ctx, candidate.id);
    await pump(bed.deps);
    const during = bed.receiver.received[0]!;
    expect(verifySignature(during.headers["service-signature"] as string, during.body, old)).toMatchObject({ valid: true, values: 2 });
    expect(verifySignature(during.headers["service-signature"] as string, during.body, fresh)).toMatchObject({ valid: true, values: 2 });
    test.clock.advance(24 * 3600_000 + 1000);
    await changeStatus(test.ctx, candidate.id, { to: "rejected", by: { type: "team", name: "Ana" } });
    await pump(bed.deps);
    const after = bed.receiver.received.at(-1)!;
    expect(verifySignature(after.headers["service-signature"] as string, after.body, old)).toMatchObject({ valid: false, values: 1 });
    expect(verifySignature(after.headers["service-signature"] as string, after.body, fresh)).toMatchObject({ valid: true, values: 1 });
  });

  it("send waiting messages to a new address straight away", async () => {
    const { id } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url("/old") }, allowReceiver(bed.receiver));
    bed.receiver.answer((request) => ({ status: request.path === "/old" ? 500 : 200 }));
    const candidate = await readyCandidate();
    await submitAttempt(test.ctx, candidate.id);
    await pump(bed.deps);
    expect(bed.receiver.received.map((r) => r.path)).toEqual(["/old"]);
    await updateWebhook(test.ctx, companyId, id, { url: bed.receiver.url("/new") }, allowReceiver(bed.receiver));
    // The log's next try (what the delivery log shows) is now, as the queue's, for the retry too.
    const waiting = await test.ctx.db
      .select()
      .from(webhookMessages)
      .where(and(eq(webhookMessages.webhookId, id), eq(webhookMessages.status, "pending")));
    expect(waiting.map((message) => message.nextAttemptAt.getTime() <= test.clock.now().getTime())).toEqual(waiting.map(() => true));
    await pump(bed.deps);
    expect(bed.receiver.received.map((r) => `${r.path}:${r.headers["service-delivery-attempt"]}`)).toEqual(["/old:1", "/new:2", "/new:1", "/new:1"]);
  });
});

describe("a late recording", () => {
  it("adds no message after ready", async () => {
    await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await saveScore(test.ctx, candidate.id, score());
    await submitAttempt(test.ctx, candidate.id);
    const { markRecordingOverdue } = await import("@/server/domain/ai-interview");
    await markRecordingOverdue(test.ctx, candidate.id);
    await pump(bed.deps);
    const before = bed.receiver.received.length;
    await storeRecording(test.ctx, candidate.id, recording);
    await pump(bed.deps);
    expect(bed.receiver.received.length).toBe(before);
    expect((await test.ctx.db.select().from(candidates).where(eq(candidates.id, candidate.id)))[0]!.recordingStatus).toBe("ready");
  });
});

describe("a chain's next message", () => {
  it("is released when its predecessor finishes while the fan-out creating it has not yet committed", async () => {
    const { webhookId, candidate } = await webhookWithSubmission(["candidate.submitted", "candidate.status_changed"]);
    await fanOutCompany(test.ctx, companyId);
    const [head] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
    await clearJobs(test.ctx.db);

    // The head is in flight: leased, its request at the receiver.
    let answer = () => {};
    bed.receiver.answer(() => ({ status: 200, until: new Promise<void>((resolve) => (answer = resolve)) }));
    const attempt = deliverRound(head!.id);
    await bed.receiver.waitFor(1);

    // A later event's fan-out runs in a transaction that stays open...
    await changeStatus(test.ctx, candidate.id, { to: "rejected", by: { type: "team", name: "Ana" } });
    let commit = () => {};
    let fannedOut = false;
    const fanOut = test.ctx.db.transaction(async (tx) => {
      await fanOutCompany({ ...test.ctx, db: tx as unknown as typeof test.ctx.db }, companyId);
      fannedOut = true;
      await new Promise<void>((resolve) => (commit = resolve));
    });
    await expect.poll(() => fannedOut, { timeout: 5_000 }).toBe(true);

    // ...while the head's outcome is recorded: it either waits for that commit,
    // or (the race) commits first without seeing the new message.
    answer();
    let settled = false;
    void attempt.finally(() => (settled = true));
    await expect.poll(async () => settled || (await waitingOnLocks()) > 0, { timeout: 10_000 }).toBe(true);
    commit();
    await fanOut;
    expect(await attempt).toBe("succeeded");

    const [next] = await test.ctx.db
      .select()
      .from(webhookMessages)
      .where(and(eq(webhookMessages.webhookId, webhookId), eq(webhookMessages.status, "pending")));
    expect(next).toBeDefined();
    expect(await readyMessageIds(bed.deps)).toEqual([next!.id]);
  });
});

describe("a recording whose reply was lost", () => {
  it("is recorded again without error: one attempt, the message finished once, the chain's next message ready", async () => {
    // The network may drop the recording's reply after the server committed,
    // and the dispatcher records the same batch again.
    const { webhookId, candidate } = await webhookWithSubmission(["candidate.submitted", "candidate.status_changed"]);
    await changeStatus(test.ctx, candidate.id, { to: "rejected", by: { type: "team", name: "Ana" } });
    await fanOutCompany(test.ctx, companyId);
    const { messages } = await claimDue(test.ctx.db, test.ctx.clock.now(), { limit: 10 });
    expect(messages).toHaveLength(1);
    const batch = [await attemptDelivery(bed.deps, messages[0]!)];

    expect((await recordOutcomes(bed.deps, batch)).get(messages[0]!.id)).toBe("succeeded");
    expect((await recordOutcomes(bed.deps, batch)).get(messages[0]!.id)).toBe("gone");

    expect(await test.ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.messageId, messages[0]!.id))).toHaveLength(1);
    const [next] = await test.ctx.db
      .select()
      .from(webhookMessages)
      .where(and(eq(webhookMessages.webhookId, webhookId), eq(webhookMessages.status, "pending")));
    expect(await readyMessageIds(bed.deps)).toEqual([next!.id]);
  });
});

describe("a webhook deleted while its message was in flight", () => {
  it("does not stop the recording: the batch's other outcomes are recorded, and its own is gone", async () => {
    const { webhookId: kept } = await webhookWithSubmission(["candidate.submitted"]);
    const deleted = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url("/deleted"), eventTypes: ["candidate.submitted"] },
      allowReceiver(bed.receiver),
    );
    await submitAttempt(test.ctx, (await readyCandidate("second@example.com")).id);
    await fanOutCompany(test.ctx, companyId);
    const { messages } = await claimDue(test.ctx.db, test.ctx.clock.now(), { limit: 10 });
    expect(new Set(messages.map((message) => message.webhookId))).toEqual(new Set([kept, deleted.id]));
    const batch = await Promise.all(messages.map((message) => attemptDelivery(bed.deps, message)));
    await deleteWebhook(test.ctx, companyId, deleted.id);

    const outcomes = await recordOutcomes(bed.deps, batch);
    for (const message of messages) expect(outcomes.get(message.id)).toBe(message.webhookId === kept ? "succeeded" : "gone");
    const attempts = await test.ctx.db
      .select()
      .from(webhookAttempts)
      .where(
        inArray(
          webhookAttempts.messageId,
          messages.map((message) => message.id),
        ),
      );
    expect(attempts.map((attempt) => attempt.webhookId)).toEqual(messages.filter((message) => message.webhookId === kept).map(() => kept));
  });
});

describe("a resend while its chain's head is in flight", () => {
  /** A submission delivered, then a status change waiting as its chain's head; returns the submission's message. */
  async function deliveredSubmissionThenStatusChange() {
    const { webhookId, candidate } = await webhookWithSubmission(["candidate.submitted", "candidate.status_changed"]);
    await fanOutCompany(test.ctx, companyId);
    const [submitted] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
    expect(await deliverRound(submitted!.id)).toBe("succeeded");
    await changeStatus(test.ctx, candidate.id, { to: "rejected", by: { type: "team", name: "Ana" } });
    await fanOutCompany(test.ctx, companyId);
    return submitted!;
  }

  const queued = async () =>
    (await test.ctx.db.select({ id: webhookQueue.messageId, state: webhookQueue.state }).from(webhookQueue).orderBy(webhookQueue.position)).map(
      ({ id, state }) => `${id}:${state}`,
    );

  it("joins the chain's tail: the head's retry keeps its place, and the resent message follows it", async () => {
    const submitted = await deliveredSubmissionThenStatusChange();

    // The status change is the head and in flight, and its receiver will refuse it...
    const { messages } = await claimDue(test.ctx.db, test.ctx.clock.now(), { limit: 10 });
    expect(messages).toHaveLength(1);
    const statusChange = messages[0]!;
    bed.receiver.answer(() => ({ status: 500 }));
    const attempted = await attemptDelivery(bed.deps, statusChange);
    // ...when an admin resends the older submission: it waits behind the status change.
    const { id: resentId } = await resendMessage(test.ctx, companyId, submitted.id);
    expect(await queued()).toEqual([`${statusChange.id}:running`, `${resentId}:held`]);
    expect((await recordOutcomes(bed.deps, [attempted])).get(statusChange.id)).toBe("retry_scheduled");
    expect(await queued()).toEqual([`${statusChange.id}:ready`, `${resentId}:held`]);

    bed.receiver.answer(() => ({ status: 200 }));
    test.clock.advance(retryDelaysMs[0]!);
    expect(await deliverRound(statusChange.id)).toBe("succeeded");
    expect(await deliverRound(resentId)).toBe("succeeded");
    expect(await queued()).toEqual([]);
    // The refused try, the retry, then the resent message.
    expect(bodies().map((body) => body.type)).toEqual(["candidate.submitted", "candidate.status_changed", "candidate.status_changed", "candidate.submitted"]);
  });

  it("waits for a dead worker's lease to run out: the head is sent again first, then the resent message", async () => {
    const submitted = await deliveredSubmissionThenStatusChange();

    // The status change is claimed by a worker that dies before it records anything...
    const [statusChange] = (await claimDue(test.ctx.db, test.ctx.clock.now(), { limit: 10 })).messages;
    // ...and an admin resends the older submission meanwhile: it waits behind it.
    const { id: resentId } = await resendMessage(test.ctx, companyId, submitted.id);
    expect(await deliverDue(bed.deps, { limit: 10 })).toEqual(new Map());

    // A claimed message never sent is stuck: the gauge counts it once its lease has run out (on the database's clock).
    await test.handle.sql`update webhook_queue set due_at = now() - interval '10 minutes' where message_id = ${statusChange!.id}`;
    const gauges = await databaseGauges(test.handle.sql).text();
    expect(Number(/^interview_webhook_oldest_due_message_age_seconds (\S+)$/m.exec(gauges)![1])).toBeGreaterThanOrEqual(600);
    const waiting = (state: string) => Number(new RegExp(`^interview_webhook_messages_waiting\\{state="${state}"\\} (\\S+)$`, "m").exec(gauges)![1]);
    expect({ held: waiting("held"), ready: waiting("ready"), running: waiting("running") }).toEqual({ held: 1, ready: 0, running: 1 });

    // Once the dead worker's lease has run out (on the test's clock, its end put back), the head goes again, then the resent message.
    await test.ctx.db
      .update(webhookQueue)
      .set({ dueAt: new Date(test.clock.now().getTime() + leaseMs()) })
      .where(eq(webhookQueue.messageId, statusChange!.id));
    test.clock.advance(leaseMs() + 1000);
    expect([...(await deliverDue(bed.deps, { limit: 10 }))]).toEqual([[statusChange!.id, "succeeded"]]);
    expect(await deliverRound(resentId)).toBe("succeeded");
    expect(bodies().map((body) => body.type)).toEqual(["candidate.submitted", "candidate.status_changed", "candidate.submitted"]);
  });
});

describe("a message whose event no longer exists", () => {
  // A queued message keeps its event (its day of the log and of the history are kept while it waits); a resend made
  // after retention dropped its event's day has nothing to send.
  it("a resend made after its event is gone ends on our side: no request, no attempt, the webhook's record untouched, the log says why, the chain goes on", async () => {
    const { webhookId, candidate } = await webhookWithSubmission(["candidate.submitted", "candidate.status_changed"]);
    await fanOutCompany(test.ctx, companyId);
    await pump(bed.deps);
    const [submitted] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
    await test.ctx.db.delete(events).where(eq(events.id, submitted!.eventId));
    const { id: resentId } = await resendMessage(test.ctx, companyId, submitted!.id);
    await changeStatus(test.ctx, candidate.id, { to: "rejected", by: { type: "team", name: "Ana" } });
    await fanOutCompany(test.ctx, companyId);

    await pump(bed.deps);
    expect(bodies().map((body) => body.type)).toEqual(["candidate.submitted", "candidate.status_changed"]);
    const [ended] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.id, resentId));
    expect(ended).toMatchObject({ status: "failed", attemptCount: 0, failureReason: eventGoneReason });
    expect(await test.ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.messageId, resentId))).toEqual([]);
    const [webhook] = await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, webhookId));
    expect(webhook).toMatchObject({ enabled: true, failingSince: null, lastFailureAt: null });
  });
});

describe("the failure policy's emails", () => {
  it("are recorded with the state change they report and sent by a job that retries until the email goes", async () => {
    const { webhookId } = await webhookWithSubmission();
    bed.receiver.answer(() => ({ status: 500 }));
    await pump(bed.deps);
    test.clock.advance(25 * 3600_000);
    // The mail server is down when the alert is due, as after a crash between
    // the state change and the send: the email must survive both.
    const mailer = bed.deps.mailer!;
    bed.deps.mailer = { send: () => Promise.reject(new Error("SMTP unreachable")) };
    await runWebhookMaintenance(bed.deps);
    const [webhook] = await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, webhookId));
    expect(webhook!.failureAlertedAt).not.toBeNull();
    const [alert] = await test.ctx.db.select().from(emails).where(eq(emails.companyId, companyId));
    expect(alert).toMatchObject({ kind: "webhook_failing", sentAt: null });
    const jobs = await queuedJobs<SendEmailPayload>(test.ctx.db, taskNames.sendEmail);
    expect(jobs.map((job) => job.payload.emailId)).toEqual([alert!.id]);

    await expect(sendQueuedEmail(test.ctx, bed.deps.mailer, alert!.id)).rejects.toThrow("SMTP unreachable");
    expect((await test.ctx.db.select().from(emails).where(eq(emails.id, alert!.id)))[0]).toMatchObject({ sentAt: null, error: "SMTP unreachable" });
    bed.deps.mailer = mailer;
    await sendQueuedEmail(test.ctx, bed.deps.mailer, alert!.id);
    await sendQueuedEmail(test.ctx, bed.deps.mailer, alert!.id);
    expect(bed.deps.sent.map((email) => email.subject)).toEqual(["A webhook has been failing for a day"]);
    expect((await test.ctx.db.select().from(emails).where(eq(emails.id, alert!.id)))[0]).toMatchObject({ error: null });
  });

  it("are not recorded when the state change rolls back", async () => {
    const { webhookId } = await webhookWithSubmission();
    bed.receiver.answer(() => ({ status: 500 }));
    await pump(bed.deps);
    test.clock.advance(25 * 3600_000);
    const [webhook] = await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, webhookId));
    await expect(
      test.ctx.db.transaction(async (tx) => {
        await applyFailurePolicy(tx, test.ctx, webhook!, test.clock.now());
        throw new Error("crash before commit");
      }),
    ).rejects.toThrow("crash before commit");
    expect(await test.ctx.db.select().from(emails).where(eq(emails.companyId, companyId))).toEqual([]);
    expect(await queuedJobs(test.ctx.db, taskNames.sendEmail)).toEqual([]);
  });
});

describe("an attempt whose worker died", () => {
  it("is taken over as soon as its lease runs out, not at the next maintenance run", async () => {
    const { webhookId } = await webhookWithSubmission();
    await fanOutCompany(test.ctx, companyId);
    await clearJobs(test.ctx.db);
    // Leased by a worker that then died.
    await test.ctx.db
      .update(webhookQueue)
      .set({ state: "running", leasedAt: test.clock.now(), dueAt: new Date(test.clock.now().getTime() + leaseMs()) })
      .where(eq(webhookQueue.webhookId, webhookId));
    expect(await deliverDue(bed.deps, { limit: 10 })).toEqual(new Map());
    test.clock.advance(leaseMs() - 1);
    expect(await deliverDue(bed.deps, { limit: 10 })).toEqual(new Map());
    test.clock.advance(1);
    await pump(bed.deps);
    expect(bodies().map((body) => body.type)).toEqual(["candidate.submitted"]);
  });
});

describe("a company whose fan-out job was lost", () => {
  it("is caught up by the next maintenance run", async () => {
    await createWebhook(test.ctx, companyId, { url: bed.receiver.url(), eventTypes: ["candidate.submitted"] }, allowReceiver(bed.receiver));
    const candidate = await readyCandidate();
    await submitAttempt(test.ctx, candidate.id);
    await clearJobs(test.ctx.db);
    // Settled once every older transaction on the server has ended (other test files share it).
    await expect.poll(() => runWebhookMaintenance(bed.deps)).toMatchObject({ fanOutsCaughtUp: 1 });
    await pump(bed.deps);
    expect(bodies().map((body) => body.type)).toEqual(["candidate.submitted"]);
    expect(await runWebhookMaintenance(bed.deps)).toMatchObject({ fanOutsCaughtUp: 0 });
  });
});

describe("a message queued as its webhook is turned off", () => {
  it("is ended by the turning off when it was queued first: turning off waits for the queueing to commit", async () => {
    const { webhookId, candidate } = await webhookWithSubmission();
    // A fan-out's transaction has queued the message (and holds the webhook's lock, shared) but not committed yet...
    const [webhook] = await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, webhookId));
    const [event] = await test.ctx.db.select().from(events).where(eq(events.candidateId, candidate.id));
    const writer = createDatabase(test.url, { max: 1 });
    let commit = () => {};
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let markQueued = () => {};
    const queued = new Promise<void>((resolve) => (markQueued = resolve));
    const queueing = writer.db.transaction(async (tx) => {
      await enqueueMessages(tx, [eventMessage(test.ctx.newId, webhook!, event!)], test.clock.now());
      markQueued();
      await committed;
    });
    try {
      await queued;
      // ...when an admin turns the webhook off: that waits for the queueing, then ends what it queued.
      const turningOff = setWebhookEnabled(test.ctx, companyId, webhookId, false);
      await expect.poll(waitingOnLocks, { timeout: 10_000 }).toBe(1);
      commit();
      await queueing;
      expect(await turningOff).toEqual({ markedFailed: 1 });
    } finally {
      commit();
      await writer.close();
    }
    const [ended] = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
    expect(ended).toMatchObject({ candidateId: candidate.id, status: "failed", failureReason: webhookOffReason });
    expect(await pump(bed.deps)).toEqual([]);
    expect(bed.receiver.received).toEqual([]);
  });

  it("is not queued when the turning off committed first", async () => {
    const { webhookId } = await webhookWithSubmission();
    const [webhook] = await test.ctx.db.select().from(webhooks).where(eq(webhooks.id, webhookId));
    await setWebhookEnabled(test.ctx, companyId, webhookId, false);
    // A message built from the webhook as it was read before (on), queued after.
    const { enqueueMessages } = await import("@/server/webhooks/delivery/queue");
    const [event] = await test.ctx.db.select().from(events).where(eq(events.companyId, companyId));
    const message = {
      id: test.ctx.newId("message"),
      companyId,
      webhookId: webhook!.id,
      origin: "event" as const,
      eventId: event!.id,
      eventType: event!.type,
      candidateId: event!.candidateId,
      historyAt: event!.createdAt,
      event: { createdAt: event!.createdAt, change: event!.change },
    };
    expect(await test.ctx.db.transaction((tx) => enqueueMessages(tx, [message], test.clock.now()))).toEqual({ ids: [], allowed: true });
    expect(await test.ctx.db.select().from(webhookQueue)).toEqual([]);
  });
});

describe("an attempt whose worker stalls past its lease before sending", () => {
  it("sends nothing: the lease has passed to another attempt", async () => {
    const { message } = await fannedOutMessage();
    // The clock jumps most of a lease between taking it and sending.
    let calls = 0;
    const stalling = { now: () => new Date(test.clock.now().getTime() + (calls++ > 0 ? leaseMs() - 5_000 : 0)) };
    expect(await deliverRound(message!.id, { ...bed.deps, ctx: { ...test.ctx, clock: stalling } })).toBe("lease_lost");
    expect(bed.receiver.received).toEqual([]);
  });
});

describe("a chain's order", () => {
  it("is the history's (transaction, then sequence), even where sequence numbers alone disagree", async () => {
    await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url(), eventTypes: ["candidate.submitted", "candidate.status_changed"] },
      allowReceiver(bed.receiver),
    );
    const candidate = await readyCandidate();
    await submitAttempt(test.ctx, candidate.id);
    // An event of an older transaction that drew its sequence number later
    // (it wrote something before locking the candidate): first in the history.
    const [submitted] = await test.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.candidateId, candidate.id), eq(events.type, "candidate.submitted")));
    await test.ctx.db.insert(events).values({
      id: test.ctx.newId("event"),
      companyId,
      candidateId: candidate.id,
      interviewId: interview.id,
      type: "candidate.status_changed",
      change: { from: "needs_review", to: "shortlisted", by: { type: "team", name: "Ana" } },
      createdAt: test.clock.now(),
      txId: submitted!.txId - 1n,
    });
    await pump(bed.deps);
    expect(bodies().map((body) => body.type)).toEqual(["candidate.status_changed", "candidate.submitted"]);
  });
});

describe("a batch", () => {
  it("claims the heads of several chains at once, never two of one chain, and no more than a webhook's room", async () => {
    const { id: webhookId } = await createWebhook(test.ctx, companyId, { url: bed.receiver.url() }, allowReceiver(bed.receiver));
    const submitted = [];
    for (const email of ["a@example.com", "b@example.com", "c@example.com"]) {
      const candidate = await readyCandidate(email);
      await submitAttempt(test.ctx, candidate.id);
      submitted.push(candidate.id);
    }
    await fanOutCompany(test.ctx, companyId);
    const now = test.clock.now();
    expect((await claimDue(test.ctx.db, now, { limit: 10, room: new Map([[webhookId, 2]]) })).messages).toHaveLength(2);

    test.clock.advance(leaseMs());
    const outcomes = await deliverDue(bed.deps, { limit: 10 });
    expect([...outcomes.values()]).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(new Set(bodies().map((body) => body.candidate.id))).toEqual(new Set(submitted));
    expect(bodies().map((body) => body.type)).toEqual(["candidate.submitted", "candidate.submitted", "candidate.submitted"]);
    // Each chain's next message is ready, and only that one.
    const ready = await test.ctx.db
      .select({ eventType: webhookMessages.eventType })
      .from(webhookQueue)
      .innerJoin(webhookMessages, and(eq(webhookMessages.id, webhookQueue.messageId), eq(webhookMessages.historyAt, webhookQueue.historyAt)))
      .where(ne(webhookQueue.state, "held"));
    expect(ready.map((message) => message.eventType)).toEqual(["candidate.scored", "candidate.scored", "candidate.scored"]);
    await pump(bed.deps);
    expect(bed.receiver.received).toHaveLength(9);
  });
});

describe("the dispatcher", () => {
  it("sends a past event's message at once (announced as it is queued), long before its next poll", async () => {
    // A candidate submitted ten days ago, while no webhook existed: its events are in that day.
    const now = test.clock.now();
    test.clock.advance(-10 * 24 * 3600_000);
    const past = await readyCandidate("past@example.com");
    await submitAttempt(test.ctx, past.id);
    test.clock.set(now);
    await fanOutCompany(test.ctx, companyId);
    const { id: webhookId } = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url(), eventTypes: ["candidate.submitted"] },
      allowReceiver(bed.receiver),
    );
    await submitAttempt(test.ctx, (await readyCandidate("today@example.com")).id);
    await fanOutCompany(test.ctx, companyId);

    const recordings = createDatabase(test.url, { max: 1 });
    const dispatcher = startDispatcher({ ...bed.deps, claims: bed.deps.ctx.db, recordings: recordings.db }, { slots: 4, perWebhook: 2, pollMs: 60_000 });
    try {
      await expect.poll(() => bed.receiver.received.length, { timeout: 10_000 }).toBe(1);
      // The past event sent now: its message is in its own day of the log, ten days back, and is announced (NOTIFY).
      expect(await backfill(test.ctx, companyId, webhookId, new Date(now.getTime() - 11 * 24 * 3600_000))).toEqual({ sent: 1, more: false });
      await expect.poll(() => bed.receiver.received.length, { timeout: 10_000 }).toBe(2);
      expect(JSON.parse(bed.receiver.received[1]!.body)).toMatchObject({ type: "candidate.submitted", candidate: { id: past.id } });
    } finally {
      await dispatcher.stop();
      await recordings.close();
    }
  });

  it("sends a webhook at its cap its next message as soon as a request ends, before that outcome is recorded", async () => {
    const { id: webhookId } = await createWebhook(
      test.ctx,
      companyId,
      { url: bed.receiver.url(), eventTypes: ["candidate.submitted"] },
      allowReceiver(bed.receiver),
    );
    for (let index = 0; index < 3; index++) await submitAttempt(test.ctx, (await readyCandidate(`capped${index}@example.com`)).id);
    await fanOutCompany(test.ctx, companyId);
    // The webhook's row locked: a recording (its attempts' key, its last success) waits; claims do not.
    const session = await test.handle.sql.reserve();
    await session`begin`;
    await session`select from webhooks where id = ${webhookId} for update`;
    const recordings = createDatabase(test.url, { max: 1 });
    const dispatcher = startDispatcher({ ...bed.deps, claims: bed.deps.ctx.db, recordings: recordings.db }, { slots: 4, perWebhook: 1, pollMs: 60_000 });
    try {
      // One at a time (its cap), each claimed when the one before ends: nothing recorded, no poll.
      await expect.poll(() => bed.receiver.received.length, { timeout: 10_000 }).toBe(3);
      // The first outcome's recording waits for the lock.
      await expect.poll(waitingOnLocks, { timeout: 10_000 }).toBe(1);
      expect(bed.receiver.received).toHaveLength(3);
    } finally {
      await session`commit`;
      session.release();
      await dispatcher.stop();
      await recordings.close();
    }
    const sent = await test.ctx.db.select().from(webhookMessages).where(eq(webhookMessages.webhookId, webhookId));
    expect(sent.map((message) => message.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
  });

  it("gives a webhook whose receiver hangs only its share of the slots: the others keep going", async () => {
    const slow = await createWebhook(test.ctx, companyId, { url: bed.receiver.url("/slow"), eventTypes: ["candidate.submitted"] }, allowReceiver(bed.receiver));
    await createWebhook(test.ctx, companyId, { url: bed.receiver.url("/fast"), eventTypes: ["candidate.submitted"] }, allowReceiver(bed.receiver));
    let answerSlow = () => {};
    const slowAnswered = new Promise<void>((resolve) => (answerSlow = resolve));
    bed.receiver.answer((request) => (request.path === "/slow" ? { status: 200, until: slowAnswered } : { status: 200 }));
    for (let index = 0; index < 6; index++) await submitAttempt(test.ctx, (await readyCandidate(`share${index}@example.com`)).id);
    await fanOutCompany(test.ctx, companyId);

    const recordings = createDatabase(test.url, { max: 1 });
    const dispatcher = startDispatcher({ ...bed.deps, claims: bed.deps.ctx.db, recordings: recordings.db }, { slots: 4, perWebhook: 2, pollMs: 50 });
    const arrived = (path: string) => bed.receiver.received.filter((request) => request.path === path).length;
    await expect.poll(() => arrived("/fast"), { timeout: 10_000 }).toBe(6);
    expect(arrived("/slow")).toBe(2);
    answerSlow();
    await expect.poll(() => arrived("/slow"), { timeout: 10_000 }).toBe(6);
    await dispatcher.stop();
    await recordings.close();
    const waiting = await test.ctx.db
      .select()
      .from(webhookMessages)
      .where(and(eq(webhookMessages.webhookId, slow.id), eq(webhookMessages.status, "pending")));
    expect(waiting).toEqual([]);
  });
});
