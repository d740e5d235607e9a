/**
 * Faults from outside, as an operator would cause them: three real worker
 * processes on one database while candidates are written; ten times a random
 * worker is killed with SIGKILL (and restarted), and PostgreSQL is restarted
 * once with an immediate shutdown (no checkpoint, every connection cut). The
 * receiver turns away about one first try in twenty.
 *
 * Afterwards every event reaches both webhooks within a few minutes, each
 * candidate's events are first accepted in history order (the order of
 * GET /v1/events), and a repeat carries the same event id.
 *
 * The timing of the faults is drawn from a seed, printed at the start:
 * FAULT_SEED=… replays a run. FAULT_RUNS=n repeats it with fresh seeds
 * (`npm run test:faults`).
 */
import { expect, it } from "vitest";
import { createRandom } from "@/server/demo/random";
import { submitAttempt } from "@/server/domain/attempts";
import { changeStatus } from "@/server/domain/statuses";
import { listEvents } from "@/server/read/events";
import { createWebhook } from "@/server/webhooks/manage";
import { completeSteps, makeCompany, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import { useOwnDatabase } from "../support/own-database";
import { allowReceiver } from "../support/webhook-fixtures";
import { useWorkerProcesses, type WorkerProcess } from "../support/worker-process";

const candidateCount = 60;
const writers = 3;
const kills = 10;
const leaseSeconds = 11;
const runs = Number(process.env.FAULT_RUNS ?? 1);

const own = useOwnDatabase("faults");
const startWorker = useWorkerProcesses(() => ({
  DATABASE_URL: own.url,
  WEBHOOK_ALLOW_TARGETS: own.receiver.target,
  WEBHOOK_CA_FILE: own.caFile,
  WEBHOOK_ATTEMPT_LEASE_SECONDS: String(leaseSeconds),
}));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (let run = 1; run <= runs; run++) {
  it(`delivers every event, in order, through killed workers and a database restart (run ${run} of ${runs})`, { timeout: 420_000 }, async () => {
    const seed = run === 1 && process.env.FAULT_SEED ? Number(process.env.FAULT_SEED) : Math.floor(Math.random() * 2 ** 31);
    console.log(`worker faults: seed ${seed} (replay with FAULT_SEED=${seed})`);
    // Separate streams, so the faults' timing replays whatever the receiver and writers drew.
    const faults = createRandom(seed);
    const refusals = createRandom(seed + 1);
    const pacing = createRandom(seed + 2);

    const companyId = await makeCompany(own.ctx, `Faults ${seed}`);
    const interview = await makeInterview(own.ctx, companyId);
    const webhooks = ["/a", "/b"];
    for (const hookPath of webhooks)
      await createWebhook(own.ctx, companyId, { url: own.receiver.url(`${hookPath}/${companyId}`) }, allowReceiver(own.receiver));

    // The first 200 each (webhook, event) got, in arrival order. About one
    // first try in twenty is refused, at most once per chain: each refusal
    // holds its chain for the first retry's minute, and the wait below must
    // stay a few minutes.
    const accepted: Array<{ hook: string; eventId: string; candidateId: string }> = [];
    const seen = new Set<string>();
    const refusedChains = new Set<string>();
    const mismatchedIds: string[] = [];
    own.receiver.received.length = 0;
    own.receiver.answer((request) => {
      const body = JSON.parse(request.body) as { id: string; candidate: { id: string } };
      if (request.headers["service-event-id"] !== body.id) mismatchedIds.push(body.id);
      const key = `${request.path}|${body.id}`;
      const chain = `${request.path}|${body.candidate.id}`;
      const firstTry = request.headers["service-delivery-attempt"] === "1";
      if (firstTry && !seen.has(key) && !refusedChains.has(chain) && refusals.chance(1 / 20)) {
        refusedChains.add(chain);
        return { status: 503 };
      }
      if (!seen.has(key)) {
        seen.add(key);
        accepted.push({ hook: request.path, eventId: body.id, candidateId: body.candidate.id });
      }
      return { status: 200, delayMs: refusals.int(0, 40) };
    });

    const workers: WorkerProcess[] = [await startWorker(), await startWorker(), await startWorker()];

    // Writers: candidates submitted and then decided, a few at a time.
    let paused: Promise<void> | null = null;
    let writing = 0;
    let written = 0;
    const writeCandidates = async (writer: number) => {
      for (let index = writer; index < candidateCount; index += writers) {
        while (paused) await paused;
        writing++;
        const candidate = await startCandidate(own.ctx, interview.id, { email: `c${index}-${seed}@example.com` });
        await completeSteps(own.ctx, interview, candidate.id);
        await scoreAndRecord(own.ctx, candidate.id, 40 + (index % 50));
        await submitAttempt(own.ctx, candidate.id);
        await changeStatus(own.ctx, candidate.id, { to: index % 2 ? "shortlisted" : "rejected", by: { type: "team", name: "Ana" } });
        writing--;
        written++;
        await sleep(pacing.int(100, 500));
      }
    };
    const allWritten = Promise.all(Array.from({ length: writers }, (_, writer) => writeCandidates(writer)));

    // Faults: ten kills 1.5 to 4 s apart, and one immediate database restart among them.
    const restartAfterKill = faults.int(2, kills - 2);
    for (let kill = 1; kill <= kills; kill++) {
      await sleep(faults.int(1_500, 4_000));
      const victim = faults.int(0, workers.length - 1);
      workers[victim]!.child.kill("SIGKILL");
      await new Promise((resolve) => workers[victim]!.child.once("exit", resolve));
      workers[victim] = await startWorker();
      if (kill === restartAfterKill) {
        let resume = () => {};
        paused = new Promise<void>((resolve) => (resume = resolve));
        while (writing > 0) await sleep(20); // candidates in progress finish; the next ones wait
        await own.restart("immediate");
        paused = null;
        resume();
      }
    }
    await allWritten;
    const lastFault = Date.now();
    expect(written).toBe(candidateCount);

    // Every event of the history reaches both webhooks.
    const history: Array<{ id: string; candidateId: string }> = [];
    for (let after: Parameters<typeof listEvents>[2]["after"]; ; ) {
      const page = await listEvents(own.handle.sql, companyId, { limit: 100, after });
      history.push(...page.events.map((event) => ({ id: event.id, candidateId: event.candidate.id })));
      if (!page.hasMore) break;
      after = page.next;
    }
    expect(history).toHaveLength(candidateCount * 4);
    const expected = history.length * webhooks.length;
    const deadline = lastFault + 240_000;
    while (accepted.length < expected && Date.now() < deadline) await sleep(500);
    const outputs = workers.map((worker) => worker.output().slice(-1500)).join("\n---\n");
    expect(accepted.length, `seed ${seed}: ${accepted.length} of ${expected} accepted 4 minutes after the last fault\n${outputs}`).toBe(expected);
    console.log(`worker faults: seed ${seed}: all ${expected} messages accepted ${Math.round((Date.now() - lastFault) / 1000)} s after the last fault`);

    // Per candidate and webhook, first acceptances follow the history's order.
    const historyOrder = new Map(history.map((event, index) => [event.id, index]));
    for (const hookPath of webhooks) {
      const byCandidate = new Map<string, number[]>();
      for (const entry of accepted.filter((a) => a.hook.startsWith(hookPath))) {
        byCandidate.set(entry.candidateId, [...(byCandidate.get(entry.candidateId) ?? []), historyOrder.get(entry.eventId)!]);
      }
      for (const [candidateId, order] of byCandidate) {
        expect(order, `seed ${seed}: candidate ${candidateId} on ${hookPath}`).toEqual([...order].sort((a, b) => a - b));
      }
    }
    expect(mismatchedIds).toEqual([]);
    for (const worker of workers) worker.child.kill("SIGTERM");
  });
}
