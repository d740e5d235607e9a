/**
 * Faults from outside, as an operator would cause them: three real worker
 * processes on one database while candidates are written; ten times a random
 * worker is killed with SIGKILL (and restarted), and PostgreSQL is restarted
 * once with an immediate shutdown (no checkpoint, every connection cut),
 * between two candidates with at least half of them still to write. The
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
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { awaitAcceptances, eventsPerCandidate, historyOf, keepLedger, printReckoning, reckon, writeCandidates } from "../support/delivery-ledger";
import { makeCompany, makeInterview } from "../support/fixtures";
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
    const ledger = keepLedger(own.receiver, refusals);

    const workers: WorkerProcess[] = [await startWorker(), await startWorker(), await startWorker()];

    // Faults never overlap: a worker is not started while the database is down.
    let faultsSoFar: Promise<void> = Promise.resolve();
    const oneFaultAtATime = (fault: () => Promise<void>) => (faultsSoFar = faultsSoFar.then(fault));

    // The restart comes between candidates, once a quarter to a half of them
    // are written (the other writers each finish the one they are writing), so
    // the writers, paused around it, write the rest through the restarted server.
    const restartAfter = faults.int(candidateCount / 4, candidateCount / 2 - (writers - 1));
    let restarted: Promise<void> | null = null;
    let writing = 0;
    let finished = 0;
    // A writer that failed never finishes its candidate: the restart stops waiting for it, and the failure shows below.
    let writerFailed = false;
    const allWritten = writeCandidates(own.ctx, interview, {
      count: candidateCount,
      writers,
      pacing,
      tag: String(seed),
      gate: async () => {
        if (!restarted && finished >= restartAfter)
          restarted = oneFaultAtATime(async () => {
            while (writing > 0 && !writerFailed) await sleep(20); // candidates in progress finish; the next ones wait
            await own.restart("immediate");
          });
        await restarted;
      },
      onWriting: (delta) => {
        writing += delta;
        if (delta < 0) finished++;
      },
    });
    allWritten.catch(() => (writerFailed = true));

    // Ten kills 1.5 to 4 s apart.
    for (let kill = 1; kill <= kills; kill++) {
      await sleep(faults.int(1_500, 4_000));
      await oneFaultAtATime(async () => {
        const victim = faults.int(0, workers.length - 1);
        workers[victim]!.child.kill("SIGKILL");
        await new Promise((resolve) => workers[victim]!.child.once("exit", resolve));
        workers[victim] = await startWorker();
      });
    }
    expect(await allWritten).toBe(candidateCount);
    await faultsSoFar;
    const lastFault = Date.now();

    // Every event of the history reaches both webhooks.
    const history = await historyOf(own.handle.sql, companyId);
    expect(history).toHaveLength(candidateCount * eventsPerCandidate);
    const expected = history.length * webhooks.length;
    const seconds = await awaitAcceptances(ledger, expected, lastFault, 240_000);
    const outputs = workers.map((worker) => worker.output().slice(-1500)).join("\n---\n");
    expect(ledger.accepted.length, `seed ${seed}: ${ledger.accepted.length} of ${expected} accepted 4 minutes after the last fault\n${outputs}`).toBe(expected);
    console.log(`worker faults: seed ${seed}: all ${expected} messages accepted ${seconds} s after the last fault`);

    // Per candidate and webhook, first acceptances follow the history's order.
    const reckoning = reckon(history, ledger, webhooks);
    printReckoning("worker faults", seed, reckoning);
    expect(reckoning.lost).toBe(0);
    expect(reckoning.outOfOrder, `seed ${seed}`).toEqual([]);
    expect(ledger.mismatchedIds).toEqual([]);
    for (const worker of workers) worker.child.kill("SIGTERM");
  });
}
