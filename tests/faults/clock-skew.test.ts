/**
 * Hosts whose clocks disagree: three real worker processes on one database,
 * one on the real clock, one 2 minutes ahead and one 2 minutes behind, each
 * under Debian's `faketime`, while candidates are written. The receiver
 * turns away about one first try in twenty.
 *
 * Every decision workers must agree on is made on the database's clock
 * (server/domain/database-clock.ts), so:
 * - no message is sent twice: with leases on the workers' clocks, the worker
 *   ahead takes over every lease the others hold, at once (15–22 of 176
 *   events were sent twice when they were);
 * - a turned-away message is tried again a minute later, as spec 6.2 says,
 *   not at once (a retry time written by the worker behind) nor three
 *   minutes later (one written by the worker ahead);
 * - nothing is lost and every candidate's messages arrive in order.
 * A signature's `t` is the sending host's clock, which receivers compare
 * with theirs: each worker's requests carry its own, which also shows that
 * `faketime` moved them.
 *
 * FAULT_SEED=… replays a run's refusals and pacing.
 */
import { execFileSync } from "node:child_process";
import { expect, it } from "vitest";
import { createRandom } from "@/server/demo/random";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { retryDelaysMs } from "@/server/webhooks/delivery/retry-schedule";
import { requireDebianTool } from "../support/debian-tools";
import { awaitAcceptances, eventsPerCandidate, historyOf, keepLedger, printReckoning, reckon, writeCandidates } from "../support/delivery-ledger";
import { makeCompany, makeInterview } from "../support/fixtures";
import { useOwnDatabase } from "../support/own-database";
import { allowReceiver } from "../support/webhook-fixtures";
import { useWorkerProcesses } from "../support/worker-process";

const skewSeconds = 120;
const candidateCount = 45;
const hasFaketime = requireDebianTool("faketime");

const own = useOwnDatabase("clock_skew");
const startWorker = useWorkerProcesses(() => ({
  DATABASE_URL: own.url,
  WEBHOOK_ALLOW_TARGETS: own.receiver.target,
  WEBHOOK_CA_FILE: own.caFile,
  // Short leases: a lease taken over early shows within seconds.
  WEBHOOK_ATTEMPT_LEASE_SECONDS: "11",
}));

/** Debian's `faketime`, moving the clock it reports by `seconds` (the monotonic clock, which timers run on, too). */
const onClock = (seconds: number) => ["faketime", "-f", `${seconds >= 0 ? "+" : ""}${seconds}s`];

it.skipIf(!hasFaketime)(
  `sends each message once, retries a minute later, and loses nothing with workers ${skewSeconds} s ahead and behind`,
  { timeout: 300_000 },
  async () => {
    // The tool moves the clock it says: a process under it reads the time skewSeconds ahead.
    const shifted = Number(execFileSync(onClock(skewSeconds)[0]!, [...onClock(skewSeconds).slice(1), "date", "+%s"], { encoding: "utf8" }));
    expect(Math.abs(shifted - Date.now() / 1000 - skewSeconds)).toBeLessThan(5);

    const seed = process.env.FAULT_SEED ? Number(process.env.FAULT_SEED) : Math.floor(Math.random() * 2 ** 31);
    console.log(`clock skew: seed ${seed} (replay with FAULT_SEED=${seed})`);
    const refusals = createRandom(seed);
    const pacing = createRandom(seed + 1);

    const companyId = await makeCompany(own.ctx, `Clock skew ${seed}`);
    const interview = await makeInterview(own.ctx, companyId);
    const webhooks = ["/a", "/b"];
    for (const hookPath of webhooks)
      await createWebhook(own.ctx, companyId, { url: own.receiver.url(`${hookPath}/${companyId}`) }, allowReceiver(own.receiver));
    const ledger = keepLedger(own.receiver, refusals);

    const skews = [0, skewSeconds, -skewSeconds];
    const workers = await Promise.all(skews.map((seconds) => startWorker(seconds === 0 ? {} : { under: onClock(seconds) })));

    expect(await writeCandidates(own.ctx, interview, { count: candidateCount, writers: 3, pacing, tag: String(seed) })).toBe(candidateCount);
    const history = await historyOf(own.handle.sql, companyId);
    expect(history).toHaveLength(candidateCount * eventsPerCandidate);
    const expected = history.length * webhooks.length;
    const written = Date.now();
    const seconds = await awaitAcceptances(ledger, expected, written, 180_000);
    console.log(`clock skew: seed ${seed}: ${ledger.accepted.length} of ${expected} accepted ${seconds} s after the last write`);

    const reckoning = reckon(history, ledger, webhooks);
    printReckoning("clock skew", seed, reckoning);
    const outputs = workers.map((worker) => worker.output().slice(-1500)).join("\n---\n");
    expect(reckoning.lost, outputs).toBe(0);
    expect(reckoning.outOfOrder).toEqual([]);

    // Each request, in arrival order: which message it carried, whether it was turned away, and its `t` against the receiver's clock.
    const requests = own.receiver.received.map((request) => ({
      message: `${request.path}|${JSON.parse(request.body).id}`,
      attempt: Number(request.headers["service-delivery-attempt"]),
      at: request.at,
      skew: Number(request.headers["webhook-timestamp"]) - request.at / 1000,
    }));
    const firstTries = requests.filter((request) => request.attempt === 1);
    const sentTwice = firstTries.length - new Set(firstTries.map((request) => request.message)).size;
    expect(sentTwice, "first tries sent again by another worker").toBe(0);
    expect(reckoning.duplicates).toBe(0);

    // A retry comes a minute after the try it follows, on the database's clock (claims look every second).
    const firstRetryMs = retryDelaysMs[0]!;
    const retries = requests.filter((request) => request.attempt === 2);
    expect(retries.length).toBeGreaterThan(0);
    for (const retry of retries) {
      const tried = firstTries.find((request) => request.message === retry.message)!;
      expect(retry.at - tried.at, retry.message).toBeGreaterThanOrEqual(firstRetryMs - 1_000);
      expect(retry.at - tried.at, retry.message).toBeLessThan(firstRetryMs + 15_000);
    }

    // Each worker signed with its own host's clock: some requests carry each skew.
    for (const seconds of skews)
      expect(
        requests.some((request) => Math.abs(request.skew - seconds) < 5),
        `t ${seconds} s off`,
      ).toBe(true);
  },
);
