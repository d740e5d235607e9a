/**
 * The company history lock (server/domain/history-lock.ts): every writer of
 * events takes it before its transaction id, so readers (the history's page
 * as GET /v1/events reads it, fan-out and deliveries) need no server-wide
 * horizon: nothing but the company's own unfinished writes holds its history
 * back, and nothing is skipped.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookMessages } from "@/db/schema";
import { bulkBatchSize } from "@/server/demo/bulk";
import { seedDemo } from "@/server/demo/seed";
import { simulate } from "@/server/demo/simulate";
import { createUser } from "@/server/domain/accounts";
import { saveScore, storeRecording } from "@/server/domain/ai-interview";
import { submitAttempt } from "@/server/domain/attempts";
import { historyLockKey, lockCompanyHistory } from "@/server/domain/history-lock";
import { type EventPosition, readEventPage } from "@/server/read/events";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { useTestDatabase } from "../support/database";
import { completeSteps, makeCompany, makeInterview, recording, score, startCandidate, submitCandidate } from "../support/fixtures";
import { heldStorage, waitingForHistoryLocks } from "../support/history-writers";
import { allowReceiver, pump, useWebhookTestbed } from "../support/webhook-fixtures";

const test = useTestDatabase();
const bed = useWebhookTestbed(test);

/** One page of the company's history, read as GET /v1/events reads it (one statement), and where the next starts. */
async function readHistory(companyId: string, after?: EventPosition) {
  const page = await readEventPage(test.handle.sql, companyId, { limit: 100, after });
  return { events: page.events.map((event) => `${event.candidate.id}:${event.type}`), next: page.next };
}

/** Sessions of this test's database waiting for an advisory lock. */
/** A company with a webhook to the receiver and an interview. */
async function companyWithWebhook(name: string) {
  const companyId = await makeCompany(test.ctx, name);
  await createWebhook(test.ctx, companyId, { url: bed.receiver.url(`/${name}`) }, allowReceiver(bed.receiver));
  return { companyId, interview: await makeInterview(test.ctx, companyId) };
}

/**
 * While `blocker` stays open, a candidate of another company is submitted:
 * its events must be in the history and delivered to its webhook within a
 * second.
 */
async function expectUnhindered(name: string) {
  const { companyId, interview } = await companyWithWebhook(name);
  const start = await readHistory(companyId);
  const candidate = await submitCandidate(test.ctx, interview, { email: `${name}@example.com` });
  const written = Date.now();
  await expect
    .poll(async () => (await readHistory(companyId, start.next)).events, { timeout: 1_000, interval: 50 })
    .toEqual([`${candidate.id}:candidate.submitted`, `${candidate.id}:candidate.scored`, `${candidate.id}:candidate.ready`]);
  await expect
    .poll(
      async () => {
        await pump(bed.deps);
        return bed.receiver.received.filter((request) => request.path === `/${name}`).length;
      },
      { timeout: 1_000, interval: 50 },
    )
    .toBe(3);
  expect(Date.now() - written).toBeLessThan(1_000);
}

describe("a company's history and webhooks", () => {
  it("are not held back by a session of the server idle in a transaction with an id", async () => {
    // `BEGIN; SELECT pg_current_xact_id();` in psql, left open.
    const idle = postgres(test.url, { max: 1, onnotice: () => {} });
    try {
      const session = await idle.reserve();
      await session`begin`;
      await session`select pg_current_xact_id()`;
      await expectUnhindered("beside-idle");
      await session`rollback`;
      session.release();
    } finally {
      await idle.end();
    }
  });

  it("are not held back by another company's write transaction that stays open", async () => {
    const other = await makeCompany(test.ctx, "Other");
    const otherInterview = await makeInterview(test.ctx, other);
    const slow = await startCandidate(test.ctx, otherInterview.id, { email: "slow@example.com" });
    await completeSteps(test.ctx, otherInterview, slow.id);
    // Company B's transaction holds its history lock and has its id, stuck in
    // the middle of storing a recording.
    const held = heldStorage(test.ctx.storage);
    const open = storeRecording({ ...test.ctx, storage: held.storage }, slow.id, recording);
    await held.entered;
    try {
      await expectUnhindered("beside-writer");
    } finally {
      held.release();
      await open;
    }
  });
});

describe("writers of one company", () => {
  it("take turns, and a reader between them skips nothing: the later writer's events come after the earlier one's", async () => {
    const { companyId, interview } = await companyWithWebhook("turns");
    const first = await startCandidate(test.ctx, interview.id, { email: "first@example.com" });
    await completeSteps(test.ctx, interview, first.id);
    await saveScore(test.ctx, first.id, score());
    await submitAttempt(test.ctx, first.id);
    const second = await startCandidate(test.ctx, interview.id, { email: "second@example.com" });
    await completeSteps(test.ctx, interview, second.id);
    await pump(bed.deps);
    const start = await readHistory(companyId);
    const delivered = bed.receiver.received.length;

    // Writer 1 takes the lock (and its id) and stops while storing the recording.
    const held = heldStorage(test.ctx.storage);
    const writer1 = storeRecording({ ...test.ctx, storage: held.storage }, first.id, recording);
    await held.entered;
    // Writer 2 starts later and waits for the lock.
    const writer2 = submitAttempt(test.ctx, second.id);
    await expect.poll(() => waitingForHistoryLocks(test.handle.sql), { timeout: 5_000 }).toBe(1);

    // The readers see nothing new yet.
    const between = await readHistory(companyId, start.next);
    expect(between.events).toEqual([]);
    await pump(bed.deps);
    expect(bed.receiver.received.length).toBe(delivered);

    held.release();
    await Promise.all([writer1, writer2]);
    const after = await readHistory(companyId, between.next);
    expect(after.events).toEqual([`${first.id}:candidate.ready`, `${second.id}:candidate.submitted`]);
    await pump(bed.deps);
    const sent = bed.receiver.received.slice(delivered).map((request) => JSON.parse(request.body) as { type: string; candidate: { id: string } });
    expect(sent.map((body) => `${body.candidate.id}:${body.type}`).sort()).toEqual(after.events.sort());
    const messages = await test.ctx.db
      .select({ candidateId: webhookMessages.candidateId, eventType: webhookMessages.eventType })
      .from(webhookMessages)
      .where(eq(webhookMessages.companyId, companyId))
      .orderBy(webhookMessages.seq);
    expect(messages.slice(-2).map((message) => `${message.candidateId}:${message.eventType}`)).toEqual([
      `${first.id}:candidate.ready`,
      `${second.id}:candidate.submitted`,
    ]);
  });
});

describe("the lock's guard", () => {
  it("refuses a transaction that already has an id, and lets one that took the lock in time take it again", async () => {
    const companyId = await makeCompany(test.ctx, "Guarded");
    await expect(
      test.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_current_xact_id()`);
        await lockCompanyHistory(tx, [companyId]);
      }),
    ).rejects.toThrow(/already has an id/);
    await test.ctx.db.transaction(async (tx) => {
      await lockCompanyHistory(tx, [companyId]);
      await tx.execute(sql`select pg_current_xact_id()`);
      await lockCompanyHistory(tx, [companyId]);
    });
  });
});

describe("every writer of events", () => {
  /** Where the product writes events: each is exercised below with the lock checked. */
  const knownWriters = ["server/demo/bulk-import.ts", "server/domain/candidate-changes.ts"];

  it("is one of the known writers (migrations' backfills aside)", () => {
    const sources = (folder: string): string[] =>
      readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(folder, entry.name);
        if (entry.isDirectory()) return full === path.join("db", "migrations") ? [] : sources(full);
        return /\.tsx?$/.test(entry.name) ? [full] : [];
      });
    const writes = /insert\(events\)|insert\s+into\s+events\b|copy\s+events\b|copyOf\(events\b/i;
    const writers = ["server", "db", "app"].flatMap(sources).filter((file) => writes.test(readFileSync(file, "utf8")));
    expect(writers.sort()).toEqual(knownWriters);
  });

  describe("holds its companies' history locks when it writes them", () => {
    // A check of this test's own: a statement that writes events of a company
    // whose lock its session does not hold fails.
    beforeAll(async () => {
      await test.ctx.db.execute(
        sql.raw(`
        create function test_history_lock_held() returns trigger language plpgsql as $$
        declare missing text;
        begin
          select string_agg(distinct n.company_id, ', ') into missing from added n
          where not exists (
            select 1 from pg_locks l
            where l.locktype = 'advisory' and l.pid = pg_backend_pid() and l.granted and l.objsubid = 1
              and l.classid::text::bigint = (${historyLockKey("n.company_id")} >> 32) & 4294967295
              and l.objid::text::bigint = ${historyLockKey("n.company_id")} & 4294967295);
          if missing is not null then raise exception 'events of % written without the history lock', missing; end if;
          return null;
        end $$`),
      );
      await test.ctx.db.execute(
        sql`create trigger test_history_lock_held after insert on events referencing new table as added for each statement execute function test_history_lock_held()`,
      );
    });
    afterAll(async () => {
      await test.ctx.db.execute(sql`drop trigger test_history_lock_held on events`);
    });

    it("the check catches a write without the lock", async () => {
      const companyId = await makeCompany(test.ctx, "Unlocked");
      const interview = await makeInterview(test.ctx, companyId);
      const candidate = await startCandidate(test.ctx, interview.id);
      await expect(
        test.ctx.db.execute(sql`
          insert into events (id, company_id, candidate_id, interview_id, type, created_at)
          values ('evt_unlocked', ${companyId}, ${candidate.id}, ${interview.id}, 'candidate.submitted', now())`),
      ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/events of .* written without the history lock/) } });
    });

    it("every domain operation, through the demo seed's two weeks of history (one transaction)", async () => {
      const seeded = await seedDemo(test.ctx);
      expect(seeded.created).toBe(true);
      const [row] = await test.ctx.db.execute<{ events: number }>(sql`select count(*)::int as events from events where company_id = ${seeded.company_id}`);
      expect(row!.events).toBeGreaterThan(50);
    });

    it("the bulk importer, batches written at once", async () => {
      const companyId = await makeCompany(test.ctx, "Bulk");
      await createUser(test.ctx, { companyId, email: "bulk@example.com", name: "Bulk", role: "member", password: "long enough password" });
      const result = await simulate(test.ctx, { companyId, candidates: bulkBatchSize + 100, bulk: true, seed: 3 });
      expect(result.events).toBeGreaterThan(0);
    });
  });
});
