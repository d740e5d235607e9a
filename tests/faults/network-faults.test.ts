/**
 * Faults of the network between the worker and PostgreSQL, through a
 * loopback TCP proxy the test controls (tests/support/tcp-proxy.ts): a real
 * worker process reaches the database only through it while candidates are
 * written. In one run, at times drawn from a seed:
 * - connections are reset in the middle of the recording (as its outcomes
 *   are sent) and of a claim (as its reply comes back);
 * - the same two moments, blackholed instead: the connection's packets are
 *   dropped from then on, with no FIN or RST, so only the worker's own
 *   deadlines can find it; and at random, other open connections;
 * - all traffic stops for 30 s, then flows again.
 *
 * Afterwards the ledger is printed: no message lost, duplicates counted per
 * 1,000 (delivery is at least once), no candidate's messages first accepted
 * out of history order. FAULT_SEED=… replays a run; FAULT_RUNS=n repeats it.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRandom } from "@/server/demo/random";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { awaitAcceptances, eventsPerCandidate, historyOf, keepLedger, printReckoning, reckon, writeCandidates } from "../support/delivery-ledger";
import { makeCompany, makeInterview } from "../support/fixtures";
import { useOwnDatabase } from "../support/own-database";
import { type ChunkFate, type Direction, startTcpProxy, type TcpProxy } from "../support/tcp-proxy";
import { allowReceiver } from "../support/webhook-fixtures";
import { useWorkerProcesses } from "../support/worker-process";

const candidateCount = 45;
const writers = 3;
const pauseMs = 30_000;
const runs = Number(process.env.FAULT_RUNS ?? 1);

const own = useOwnDatabase("network_faults");
let proxy: TcpProxy;
beforeAll(async () => {
  proxy = await startTcpProxy(own.url);
});
afterAll(() => proxy?.close());

const startWorker = useWorkerProcesses(() => ({
  DATABASE_URL: proxy.url,
  WEBHOOK_ALLOW_TARGETS: own.receiver.target,
  WEBHOOK_CA_FILE: own.caFile,
  WEBHOOK_ATTEMPT_LEASE_SECONDS: "11",
}));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The next chunk that `matches` meets `fate`, and only that one. */
function once(fate: ChunkFate, matches: (chunk: Buffer, direction: Direction) => boolean) {
  return new Promise<void>((resolve) => {
    proxy.decide((chunk, direction) => {
      if (!matches(chunk, direction)) return "pass";
      proxy.decide(null);
      resolve();
      return fate;
    });
  });
}

for (let run = 1; run <= runs; run++) {
  it(`delivers every event, in order, through cut, blackholed and stalled database connections (run ${run} of ${runs})`, { timeout: 480_000 }, async () => {
    const seed = run === 1 && process.env.FAULT_SEED ? Number(process.env.FAULT_SEED) : Math.floor(Math.random() * 2 ** 31);
    console.log(`network faults: seed ${seed} (replay with FAULT_SEED=${seed})`);
    const faults = createRandom(seed);
    const refusals = createRandom(seed + 1);
    const pacing = createRandom(seed + 2);

    const companyId = await makeCompany(own.ctx, `Network faults ${seed}`);
    const interview = await makeInterview(own.ctx, companyId);
    const webhooks = ["/a", "/b"];
    for (const hookPath of webhooks)
      await createWebhook(own.ctx, companyId, { url: own.receiver.url(`${hookPath}/${companyId}`) }, allowReceiver(own.receiver));
    const ledger = keepLedger(own.receiver, refusals);
    // One worker: nobody else would deliver what a connection it never gives up on holds.
    const workers = [await startWorker()];

    // The writers reach the database directly: only the worker's network fails.
    const allWritten = writeCandidates(own.ctx, interview, { count: candidateCount, writers, pacing, tag: String(seed) });

    const done: string[] = [];
    const within = (ms: number, fault: Promise<void>) => Promise.race([fault.then(() => true), sleep(ms).then(() => false)]);
    // A recording's outcomes carry attempt ids; only a claim's reply carries the webhooks' addresses.
    const recording = (chunk: Buffer, direction: Direction) => direction === "to-server" && chunk.includes('"attempt_id"');
    const claimReply = (chunk: Buffer, direction: Direction) => direction === "to-client" && chunk.includes(own.receiver.url("/a/"));
    const cuts = [
      { name: "a recording reset as its outcomes were sent", fate: "reset", matches: recording },
      { name: "a claim reset as its reply came back", fate: "reset", matches: claimReply },
      { name: "a claim's connection blackholed as its reply came back", fate: "blackhole", matches: claimReply },
      { name: "a recording's connection blackholed as it was sent", fate: "blackhole", matches: recording },
    ] as const;
    for (const cut of cuts) {
      await sleep(faults.int(1_000, 3_000));
      if (await within(10_000, once(cut.fate, cut.matches))) done.push(cut.name);
      proxy.decide(null);
      if (faults.chance(1 / 2) && proxy.blackholeOne((count) => faults.int(0, count - 1))) done.push("an open connection blackholed");
    }
    await sleep(faults.int(1_000, 3_000));
    proxy.pause();
    await sleep(pauseMs);
    proxy.resume();
    done.push(`all traffic stopped for ${pauseMs / 1000} s`);
    await sleep(faults.int(500, 2_000));
    if (proxy.blackholeOne((count) => faults.int(0, count - 1))) done.push("an open connection blackholed");
    console.log(`network faults: seed ${seed}: ${done.join("; ")}`);

    expect(await allWritten).toBe(candidateCount);
    const lastFault = Date.now();
    const history = await historyOf(own.handle.sql, companyId);
    expect(history).toHaveLength(candidateCount * eventsPerCandidate);
    const expected = history.length * webhooks.length;
    const seconds = await awaitAcceptances(ledger, expected, lastFault, 240_000);
    console.log(`network faults: seed ${seed}: ${ledger.accepted.length} of ${expected} accepted ${seconds} s after the last fault`);

    const reckoning = reckon(history, ledger, webhooks);
    printReckoning("network faults", seed, reckoning);
    const outputs = workers.map((worker) => worker.output().slice(-1500)).join("\n---\n");
    expect(reckoning.lost, `seed ${seed}\n${outputs}`).toBe(0);
    expect(reckoning.outOfOrder, `seed ${seed}`).toEqual([]);
    expect(ledger.mismatchedIds).toEqual([]);
    for (const worker of workers) worker.child.kill("SIGTERM");
  });
}
