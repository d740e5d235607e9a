import { readFileSync } from "node:fs";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { candidates, events, files } from "@/db/schema";
import { bulkBatchSize } from "@/server/demo/bulk";
import { historyStepBudget, simulate } from "@/server/demo/simulate";
import { createUser } from "@/server/domain/accounts";
import { type FanOutPayload, taskNames } from "@/server/jobs/queue";
import { useTestDatabase } from "../support/database";
import { makeCompany } from "../support/fixtures";
import { queuedJobs } from "../support/jobs";

const test = useTestDatabase();
const now = new Date("2026-11-20T12:00:00Z");

async function companyWithUser(name: string) {
  const companyId = await makeCompany(test.ctx, name);
  await createUser(test.ctx, { companyId, email: `${name.toLowerCase()}@example.com`, name, role: "member", password: "long enough password" });
  return companyId;
}

const distinct = async (column: string, companyId: string) =>
  new Set(
    [
      ...(await test.handle.db.execute<{ value: string }>(
        sql.raw(`select distinct ${column}::text as value from candidates where company_id = '${companyId}' and ${column} is not null`),
      )),
    ].map((row) => row.value),
  );

/** created_at must never go backwards in history (cursor) order. */
async function historyIsInTimeOrder(companyId: string) {
  const rows = await test.handle.db
    .select({ createdAt: events.createdAt })
    .from(events)
    .where(eq(events.companyId, companyId))
    .orderBy(asc(events.txId), asc(events.seq));
  const times = rows.map((row) => row.createdAt.getTime());
  return { count: times.length, ordered: times.every((time, index) => index === 0 || time >= times[index - 1]!) };
}

describe("simulate", { timeout: 120_000 }, () => {
  it("drives candidates through every path, in time order", async () => {
    const companyId = await companyWithUser("Everything");
    const result = await simulate(test.ctx, { companyId, interviews: 4, candidates: 260, seed: 11, now });
    expect(result).toMatchObject({ mode: "history", interviews: 4, candidates: 260 });

    expect(await distinct("status", companyId)).toEqual(
      new Set(["in_progress", "passed", "needs_review", "did_not_pass", "shortlisted", "on_hold", "rejected", "cancelled", "abandoned"]),
    );
    expect(await distinct("result_state", companyId)).toEqual(new Set(["waiting", "complete", "incomplete", "not_applicable"]));
    expect(await distinct("incomplete_reason", companyId)).toEqual(
      new Set([
        "not_submitted",
        "interview_not_finished",
        "too_little_speech",
        "no_answers",
        "scoring_failed",
        "recording_failed",
        "not_delivered_in_time",
        "other",
      ]),
    );
    expect(await distinct("recording_status", companyId)).toEqual(new Set(["processing", "ready", "failed", "none", "deleted"]));
    expect(await distinct("is_preview", companyId)).toEqual(new Set(["true", "false"]));
    expect(await distinct("attempt", companyId)).toEqual(new Set(["1", "2"]));

    const changes = await test.handle.db.execute<{ by: string }>(
      sql`select distinct change->'by'->>'type' as by from events where company_id = ${companyId} and change is not null`,
    );
    expect(new Set([...changes].map((row) => row.by))).toEqual(new Set(["ai", "team"]));

    const history = await historyIsInTimeOrder(companyId);
    expect(history.count).toBe(result.events);
    expect(history.ordered).toBe(true);
    const [span] = await test.handle.db
      .select({ first: sql<string>`min(${candidates.startedAt})`, last: sql<string>`max(${candidates.startedAt})` })
      .from(candidates)
      .where(eq(candidates.companyId, companyId));
    expect(now.getTime() - new Date(span!.first).getTime()).toBeGreaterThan(12 * 24 * 3600_000);
    expect(new Date(span!.last).getTime()).toBeLessThanOrEqual(now.getTime());
  });

  it("is deterministic for a seed", async () => {
    const summary = async (companyId: string) =>
      (
        await test.handle.db
          .select({ name: candidates.name, status: candidates.status, result: candidates.resultState, startedAt: candidates.startedAt })
          .from(candidates)
          .where(eq(candidates.companyId, companyId))
          .orderBy(asc(candidates.startedAt), asc(candidates.name))
      ).map((row) => `${row.name}|${row.status}|${row.result}|${row.startedAt.toISOString()}`);
    const first = await companyWithUser("SeedA");
    const second = await companyWithUser("SeedB");
    await simulate(test.ctx, { companyId: first, candidates: 40, seed: 99, now });
    await simulate(test.ctx, { companyId: second, candidates: 40, seed: 99, now });
    expect(await summary(first)).toEqual(await summary(second));
  });

  it("stores real recordings and documents", async () => {
    const companyId = await companyWithUser("Files");
    await simulate(test.ctx, { companyId, candidates: 30, seed: 5, now });
    const stored = await test.handle.db.select().from(files).where(eq(files.companyId, companyId));
    const recording = stored.find((file) => file.kind === "recording" && !file.deletedAt)!;
    const document = stored.find((file) => file.kind === "document")!;
    const read = (key: string) => readFileSync(path.join(test.filesDir, key));
    expect(read(recording.storageKey).subarray(0, 4).toString()).toBe("RIFF");
    expect(read(recording.storageKey).byteLength).toBe(recording.sizeBytes);
    expect(read(document.storageKey).subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("reports each candidate done, in order", async () => {
    const companyId = await companyWithUser("Progress");
    const reported: number[] = [];
    await simulate(test.ctx, { companyId, candidates: 30, seed: 8, now, onProgress: (done) => reported.push(done) });
    expect(reported).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
  });

  it("writes in bulk when the history would cost more than its budget of steps", async () => {
    const companyId = await companyWithUser("Costly");
    // About 7 steps a candidate: this many candidates are well over the budget.
    const candidates = Math.ceil(historyStepBudget / 4);
    const reported: number[] = [];
    const result = await simulate(test.ctx, { companyId, candidates, seed: 4, now, onProgress: (done) => reported.push(done) });
    expect(result).toMatchObject({ mode: "bulk", candidates });
    expect(reported.at(-1)).toBe(candidates);
  });

  it("fills many candidates in bulk through the same event rules", async () => {
    const companyId = await companyWithUser("Bulk");
    const result = await simulate(test.ctx, { companyId, interviews: 4, candidates: 3000, seed: 3, bulk: true, now });
    expect(result).toMatchObject({ mode: "bulk", candidates: 3000 });
    const [counts] = await test.handle.db.execute<{ submitted: number; evented: number; ready: number; final: number }>(sql`
      select
        (select count(*)::int from candidates where company_id = ${companyId} and submitted_at is not null) as submitted,
        (select count(*)::int from events where company_id = ${companyId} and type = 'candidate.submitted') as evented,
        (select count(*)::int from events where company_id = ${companyId} and type = 'candidate.ready') as ready,
        (select count(*)::int from candidates where company_id = ${companyId} and submitted_at is not null
           and result_state in ('complete', 'incomplete', 'not_applicable')) as final`);
    expect(counts!.submitted).toBeGreaterThan(2000);
    expect(counts!.evented).toBe(counts!.submitted);
    expect(counts!.ready).toBe(counts!.final);
    expect((await historyIsInTimeOrder(companyId)).ordered).toBe(true);
  });

  it("keeps the history in time order across batches written at once, with one fan-out job per batch", async () => {
    const companyId = await companyWithUser("Batches");
    const candidates = 2 * bulkBatchSize + 1;
    const reported: number[] = [];
    const result = await simulate(test.ctx, { companyId, candidates, seed: 12, bulk: true, now, onProgress: (done) => reported.push(done) });
    expect(result).toMatchObject({ mode: "bulk", candidates });
    expect(reported).toEqual([bulkBatchSize, 2 * bulkBatchSize, candidates]);
    const history = await historyIsInTimeOrder(companyId);
    expect(history.count).toBe(result.events);
    expect(history.ordered).toBe(true);
    const [batches] = await test.handle.db.execute<{ transactions: number }>(
      sql`select count(distinct tx_id)::int as transactions from events where company_id = ${companyId}`,
    );
    expect(batches!.transactions).toBe(3);
    const jobs = (await queuedJobs<FanOutPayload>(test.handle.db, taskNames.fanOut)).filter((job) => job.payload.companyId === companyId);
    expect(jobs).toHaveLength(3);
  });
});
