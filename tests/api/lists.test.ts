/** Orderings, filters and cursors of the list endpoints, and the event history's guarantees. */
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/domain/accounts";
import { saveScore, storeRecording } from "@/server/domain/ai-interview";
import { abandonAttempt, submitAttempt } from "@/server/domain/attempts";
import { closeInterview, deleteInterview } from "@/server/domain/interviews";
import { changeStatus } from "@/server/domain/statuses";
import { useTestDatabase } from "../support/database";
import { completeSteps, makeCompany, makeInterview, recording, score, scoreAndRecord, startCandidate } from "../support/fixtures";
import { heldStorage, waitingForHistoryLocks } from "../support/history-writers";
import { callApi, useTestServer } from "../support/server";

const test = useTestDatabase();
const server = useTestServer(test);
const minute = 60_000;

async function companyWithKey(name: string) {
  const companyId = await makeCompany(test.ctx, name);
  const { key } = await createApiKey(test.ctx, { companyId, name: "k" });
  return { companyId, key };
}

/** Follows next_cursor to the end, collecting ids. */
async function walk(path: string, key: string, list: "candidates" | "interviews", between?: () => Promise<void>) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const separator = path.includes("?") ? "&" : "?";
    const response = await callApi(server, `${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ""}`, { key });
    expect(response.status).toBe(200);
    ids.push(...response.body.data[list].map((item: { id: string }) => item.id));
    cursor = response.body.data.next_cursor;
    pages++;
    await between?.();
  } while (cursor && pages < 100);
  return { ids, pages };
}

describe("GET /interviews", () => {
  it("lists newest first, never deleted ones, filters by status and pages to a null cursor", async () => {
    const { companyId, key } = await companyWithKey("Interviews");
    const made: string[] = [];
    for (let index = 0; index < 5; index++) {
      test.clock.advance(minute);
      made.push((await makeInterview(test.ctx, companyId, { title: `Role ${index}` })).id);
    }
    await deleteInterview(test.ctx, made[1]!);
    await closeInterview(test.ctx, made[3]!);
    const { ids, pages } = await walk("/v1/interviews?limit=2", key, "interviews");
    expect(ids).toEqual([made[4], made[3], made[2], made[0]]);
    expect(pages).toBe(2);
    const closed = await callApi(server, "/v1/interviews?status=closed", { key });
    expect(closed.body.data.interviews.map((i: { id: string }) => i.id)).toEqual([made[3]]);
    expect(closed.body.data.interviews[0].closed_at).not.toBeNull();
    expect(closed.body.data.next_cursor).toBeNull();
    expect((await callApi(server, `/v1/interviews/${made[1]}`, { key })).status).toBe(404);
  });
});

describe("GET /candidates", () => {
  let key: string;
  let interviewA: Awaited<ReturnType<typeof makeInterview>>;
  let interviewB: Awaited<ReturnType<typeof makeInterview>>;
  const submittedOrder: string[] = [];
  const startedOrder: string[] = [];
  let unfinished: string;

  beforeAll(async () => {
    const company = await companyWithKey("Candidates");
    key = company.key;
    interviewA = await makeInterview(test.ctx, company.companyId, { title: "A", questions: [{ text: "Ok?", type: "yes_no" }] });
    interviewB = await makeInterview(test.ctx, company.companyId, { title: "B", questions: [{ text: "Ok?", type: "yes_no" }] });
    // Started in one order, submitted in the reverse order.
    const started = [];
    for (let index = 0; index < 6; index++) {
      test.clock.advance(minute);
      const interview = index % 2 === 0 ? interviewA : interviewB;
      const candidate = await startCandidate(test.ctx, interview.id, { email: `c${index}@example.com` });
      await completeSteps(test.ctx, interview, candidate.id);
      started.push({ candidate, interview });
    }
    test.clock.advance(minute);
    unfinished = (await startCandidate(test.ctx, interviewA.id, { email: "late@example.com" })).id;
    startedOrder.push(unfinished, ...started.map((s) => s.candidate.id).reverse());
    for (const { candidate } of [...started].reverse()) {
      test.clock.advance(minute);
      await submitAttempt(test.ctx, candidate.id);
      submittedOrder.unshift(candidate.id);
    }
    await changeStatus(test.ctx, started[0]!.candidate.id, { to: "rejected", by: { type: "team", name: "T" } });
  });

  it("orders submitted candidates by most recent submission", async () => {
    const { ids } = await walk("/v1/candidates?limit=4", key, "candidates");
    expect(ids).toEqual(submittedOrder);
  });

  it("orders in_progress and all by newest start", async () => {
    expect((await walk("/v1/candidates?state=all&limit=3", key, "candidates")).ids).toEqual(startedOrder);
    expect((await walk("/v1/candidates?state=in_progress", key, "candidates")).ids).toEqual([unfinished]);
  });

  it("filters by interview, statuses and submission time", async () => {
    const byInterview = await callApi(server, `/v1/candidates?interview_id=${interviewB.id}`, { key });
    const interviews = byInterview.body.data.candidates.map((c: { interview: { id: string } }) => c.interview.id);
    expect(interviews).toEqual([interviewB.id, interviewB.id, interviewB.id]);
    const rejected = await callApi(server, "/v1/candidates?status=rejected,on_hold", { key });
    expect(rejected.body.data.candidates.map((c: { status: string }) => c.status)).toEqual(["rejected"]);

    const all = (await callApi(server, "/v1/candidates?limit=25", { key })).body.data.candidates as Array<{ id: string; submitted_at: string }>;
    const pivot = all[2]!.submitted_at;
    const after = (await callApi(server, `/v1/candidates?submitted_after=${pivot}`, { key })).body.data.candidates;
    const before = (await callApi(server, `/v1/candidates?submitted_before=${pivot}`, { key })).body.data.candidates;
    expect(after.map((c: { id: string }) => c.id)).toEqual(all.slice(0, 3).map((c) => c.id));
    expect(before.map((c: { id: string }) => c.id)).toEqual(all.slice(3).map((c) => c.id));
    // The same instant written with another offset means the same filter.
    const local = new Date(new Date(pivot).getTime() + 2 * 3600_000).toISOString().replace("Z", "+02:00");
    const sameInstant = (await callApi(server, `/v1/candidates?submitted_after=${encodeURIComponent(local)}`, { key })).body.data.candidates;
    expect(sameInstant.map((c: { id: string }) => c.id)).toEqual(after.map((c: { id: string }) => c.id));
    // RFC 3339 allows offsets up to ±23:59; PostgreSQL's own parser stops at ±15:59.
    const farEast = new Date(new Date(pivot).getTime() + 20 * 3600_000).toISOString().replace("Z", "+20:00");
    const farEastInstant = (await callApi(server, `/v1/candidates?submitted_after=${encodeURIComponent(farEast)}`, { key })).body.data.candidates;
    expect(farEastInstant.map((c: { id: string }) => c.id)).toEqual(after.map((c: { id: string }) => c.id));
  });

  it("takes date-times beyond what the database can store as the nearest it can: everything or nothing", async () => {
    const all = (await callApi(server, "/v1/candidates?limit=25", { key })).body.data.candidates.map((c: { id: string }) => c.id);
    const ids = async (query: string) => {
      const response = await callApi(server, `/v1/candidates?limit=25&${query}`, { key });
      expect(response.status, query).toBe(200);
      return response.body.data.candidates.map((c: { id: string }) => c.id);
    };
    const encoded = (value: string) => encodeURIComponent(value);
    expect(await ids(`submitted_after=${encoded("0000-01-01T00:00:00Z")}`)).toEqual(all);
    expect(await ids(`submitted_before=${encoded("9999-12-31T23:59:59-23:59")}`)).toEqual(all);
    expect(await ids(`submitted_before=${encoded("0001-01-01T00:00:00+01:00")}`)).toEqual([]);
    expect(await ids(`submitted_before=${encoded("0000-01-01T00:00:00+23:59")}`)).toEqual([]);
    expect(await ids(`submitted_after=${encoded("9999-12-31T23:59:59-23:59")}`)).toEqual([]);
  });

  it("skips no one and repeats no one while new candidates are submitted during the walk", async () => {
    const fresh: string[] = [];
    const { ids } = await walk("/v1/candidates?limit=2", key, "candidates", async () => {
      test.clock.set(new Date());
      const candidate = await startCandidate(test.ctx, interviewA.id, { email: `walk${fresh.length}@example.com` });
      await completeSteps(test.ctx, interviewA, candidate.id);
      await submitAttempt(test.ctx, candidate.id);
      fresh.push(candidate.id);
    });
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of submittedOrder) expect(ids).toContain(id);
  });
});

describe("GET /events", () => {
  type Page = { events: Array<{ id: string; type: string; candidate: { id: string; status: string } }>; next_cursor: string; has_more: boolean };
  const page = async (key: string, query = ""): Promise<Page> => {
    const response = await callApi(server, `/v1/events${query}`, { key });
    expect(response.status).toBe(200);
    return response.body.data;
  };

  it("returns a cursor even when empty, then only newer events", async () => {
    const { companyId, key } = await companyWithKey("Empty");
    const empty = await page(key);
    expect(empty).toMatchObject({ events: [], has_more: false, next_cursor: expect.any(String) });
    const interview = await makeInterview(test.ctx, companyId, { title: "X", questions: [{ text: "Ok?", type: "yes_no" }] });
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await submitAttempt(test.ctx, candidate.id);
    const next = await page(key, `?after=${encodeURIComponent(empty.next_cursor)}`);
    expect(next.events.map((e) => e.type)).toEqual(["candidate.submitted", "candidate.ready"]);
    const after = await page(key, `?after=${encodeURIComponent(next.next_cursor)}`);
    expect(after.events).toEqual([]);
  });

  it("lists oldest first with has_more, filters by type and interview, and shows the latest candidate", async () => {
    const { companyId, key } = await companyWithKey("History");
    const interviewA = await makeInterview(test.ctx, companyId);
    const interviewB = await makeInterview(test.ctx, companyId);
    const made: string[] = [];
    for (const interview of [interviewA, interviewB, interviewA]) {
      test.clock.advance(minute);
      const candidate = await startCandidate(test.ctx, interview.id, { email: `${made.length}@example.com` });
      await completeSteps(test.ctx, interview, candidate.id);
      await scoreAndRecord(test.ctx, candidate.id);
      await submitAttempt(test.ctx, candidate.id);
      made.push(candidate.id);
    }
    await changeStatus(test.ctx, made[0]!, { to: "shortlisted", by: { type: "team", name: "Ana" } });

    const first = await page(key, "?limit=4");
    expect(first.has_more).toBe(true);
    expect(first.events.map((e) => `${e.candidate.id}:${e.type}`)).toEqual([
      `${made[0]}:candidate.submitted`,
      `${made[0]}:candidate.scored`,
      `${made[0]}:candidate.ready`,
      `${made[1]}:candidate.submitted`,
    ]);
    expect(first.events[0]!.candidate.status).toBe("shortlisted");
    const rest = await page(key, `?after=${encodeURIComponent(first.next_cursor)}&limit=25`);
    expect(rest.has_more).toBe(false);
    expect(rest.events).toHaveLength(6);
    expect(rest.events.at(-1)).toMatchObject({
      type: "candidate.status_changed",
      change: { from: "passed", to: "shortlisted", by: { type: "team", name: "Ana" } },
    });

    const ready = await page(key, "?type=candidate.ready,candidate.status_changed");
    expect(ready.events.map((e) => e.type)).toEqual(["candidate.ready", "candidate.ready", "candidate.ready", "candidate.status_changed"]);
    const onlyB = await page(key, `?interview_id=${interviewB.id}`);
    expect(new Set(onlyB.events.map((e) => e.candidate.id))).toEqual(new Set([made[1]]));
  });

  describe("after a failover that lost the last transactions (decision 0095)", () => {
    const submitOne = async (companyId: string, email: string) => {
      const interview = await makeInterview(test.ctx, companyId, { title: "X", questions: [{ text: "Ok?", type: "yes_no" }] });
      const candidate = await startCandidate(test.ctx, interview.id, { email });
      await completeSteps(test.ctx, interview, candidate.id);
      await submitAttempt(test.ctx, candidate.id);
      return candidate.id;
    };

    it("resumes at the next event after a cursor whose event no longer exists", async () => {
      const { companyId, key } = await companyWithKey("Lost event");
      await submitOne(companyId, "a@example.com");
      const later = await submitOne(companyId, "b@example.com");
      const first = await page(key, "?limit=1");
      // The event the cursor names is gone, as a transaction lost in an asynchronous failover is.
      await test.handle.sql`delete from events where id = ${first.events[0]!.id}`;
      const rest = await page(key, `?after=${encodeURIComponent(first.next_cursor)}`);
      expect(rest.events.map((event) => `${event.candidate.id === later ? "b" : "a"}:${event.type}`)).toEqual([
        "a:candidate.ready",
        "b:candidate.submitted",
        "b:candidate.ready",
      ]);
    });
  });

  it("keeps only the last 30 days", async () => {
    const { companyId, key } = await companyWithKey("Retention");
    const interview = await makeInterview(test.ctx, companyId, { title: "Old", questions: [{ text: "Ok?", type: "yes_no" }] });
    test.clock.set(new Date(Date.now() - 31 * 24 * 3600_000));
    const old = await startCandidate(test.ctx, interview.id, { email: "old@example.com" });
    await completeSteps(test.ctx, interview, old.id);
    await submitAttempt(test.ctx, old.id);
    test.clock.set(new Date(Date.now() - 29 * 24 * 3600_000));
    const recent = await startCandidate(test.ctx, interview.id, { email: "recent@example.com" });
    await completeSteps(test.ctx, interview, recent.id);
    await submitAttempt(test.ctx, recent.id);
    const history = await page(key);
    expect(new Set(history.events.map((e) => e.candidate.id))).toEqual(new Set([recent.id]));
  });

  it("never skips an event of a writer that waited for another of its company: writers take turns, a reader between them sees neither", async () => {
    const { companyId, key } = await companyWithKey("Ordering");
    const interview = await makeInterview(test.ctx, companyId);
    const slow = await startCandidate(test.ctx, interview.id, { email: "slow@example.com" });
    await completeSteps(test.ctx, interview, slow.id);
    await saveScore(test.ctx, slow.id, score());
    await submitAttempt(test.ctx, slow.id);
    const fast = await startCandidate(test.ctx, interview.id, { email: "fast@example.com" });
    await completeSteps(test.ctx, interview, fast.id);
    const start = await page(key, "?limit=25");
    expect(start.has_more).toBe(false);

    // Writer 1 takes the company's history lock (and so its id) and then waits
    // in the middle of storing the recording, before its event is written.
    const held = heldStorage(test.ctx.storage);
    const writer1 = storeRecording({ ...test.ctx, storage: held.storage }, slow.id, recording);
    await held.entered;
    // Writer 2 starts later and waits for the lock (server/domain/history-lock.ts).
    const writer2 = submitAttempt(test.ctx, fast.id);
    await expect.poll(() => waitingForHistoryLocks(test.handle.sql), { timeout: 5_000 }).toBe(1);

    const whileOpen = await page(key, `?after=${encodeURIComponent(start.next_cursor)}`);
    expect(whileOpen.events).toEqual([]);
    held.release();
    await Promise.all([writer1, writer2]);

    const after = await page(key, `?after=${encodeURIComponent(whileOpen.next_cursor)}`);
    expect(after.events.map((e) => `${e.candidate.id}:${e.type}`)).toEqual([`${slow.id}:candidate.ready`, `${fast.id}:candidate.submitted`]);
  });

  it("moves a filtered reader's cursor past events of other types, and never past one committed later", async () => {
    const { companyId, key } = await companyWithKey("Filtered");
    const interview = await makeInterview(test.ctx, companyId);
    const first = await startCandidate(test.ctx, interview.id, { email: "first@example.com" });
    await completeSteps(test.ctx, interview, first.id);
    await scoreAndRecord(test.ctx, first.id);
    await submitAttempt(test.ctx, first.id);
    const caughtUp = await page(key, "?type=candidate.status_changed");
    expect(caughtUp).toMatchObject({ events: [], has_more: false });
    // Nothing of the three events before it is read again: the next page starts after them.
    const again = await page(key, `?type=candidate.submitted&after=${encodeURIComponent(caughtUp.next_cursor)}`);
    expect(again.events).toEqual([]);
    await changeStatus(test.ctx, first.id, { to: "shortlisted", by: { type: "team", name: "Ana" } });
    const next = await page(key, `?type=candidate.status_changed&after=${encodeURIComponent(caughtUp.next_cursor)}`);
    expect(next.events.map((e) => `${e.candidate.id}:${e.type}`)).toEqual([`${first.id}:candidate.status_changed`]);
  });

  it("does not record unsubmitted attempts", async () => {
    const { companyId, key } = await companyWithKey("Quiet");
    const interview = await makeInterview(test.ctx, companyId);
    const candidate = await startCandidate(test.ctx, interview.id);
    await completeSteps(test.ctx, interview, candidate.id);
    await abandonAttempt(test.ctx, candidate.id);
    expect((await page(key)).events).toEqual([]);
  });
});
