/**
 * `npm run bench:webhooks [-- --events 20000 --concurrency 10]`
 *
 * The webhook pipeline as it runs (real worker processes: fan-out, ordering,
 * signing, the delivery log) against a bare graphile-worker task that signs
 * and POSTs the same body, in the same run, to the same local HTTPS receiver,
 * at the same concurrency (requests in flight to one webhook), and against a
 * process with no database that signs and POSTs the same bodies:
 *
 * - deliveries per second, and database statements per delivered message
 *   (every top-level statement the server ran while draining, fan-out and
 *   job bookkeeping included, from pg_stat_statements);
 * - commit → arrival latency when idle (from the write's commit; the
 *   write's own transaction is printed apart);
 * - with 2 and 4 worker processes: the rate, and every candidate's events
 *   arriving in the history's order;
 * - with a receiver answering in 200 ms: the rate against what the
 *   concurrency allows;
 * - another company's webhook whose receiver answers in 10 s, with 10,000
 *   messages waiting, beside a fast one: the fast one's rate against its
 *   rate alone;
 * - a backlog of `--backlog` messages (200,000), fanned out before a worker
 *   starts: its drain rate against the first run's;
 * - the claim's mean time (its one statement, rolled back, planned once as
 *   the worker plans it) with the first run's queue, with the backlog,
 *   and with 35 days of delivered history in the log's daily partitions;
 * - a webhook limited to 50 messages a second, delivered by 3 worker
 *   processes: its rate over a minute, and every candidate's order.
 *
 * Rates run from the first arrival to the last, so process start-up counts
 * for neither side.
 */
import { fork } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDatabase } from "@/db/client";
import { simulate } from "@/server/demo/simulate";
import { submitAttempt } from "@/server/domain/attempts";
import { createDomainContext } from "@/server/domain/context";
import { localFileStorage } from "@/server/storage/file-storage";
import { setWebhookEnabled } from "@/server/webhooks/admin/set-webhook-enabled";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import { companyWithInterview, completeSteps, scoreAndRecord, startCandidate } from "../tests/support/fixtures";
import { claimMeanMs, rateOf, seedDeliveredHistory, startDeliveryBench, stopChild } from "./deliveries";
import { benchDatabase, fixed, killOnExit, table } from "./support";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "10" },
    backlog: { type: "string", default: "200000" },
    "paced-seconds": { type: "string", default: "60" },
  },
});
const targetEvents = Number(values.events);
const backlogMessages = Number(values.backlog);
const pacedSeconds = Number(values["paced-seconds"]);
const concurrency = Number(values.concurrency);
/** The slow receiver's backlog, as the issue names it. */
const slowBacklog = 10_000;
const log = (line: string) => process.stdout.write(`${line}\n`);
const benchStarted = Date.now();
/** Each phase's headline as it ends (on stderr, so the table stays apart): a long run shows where it is, and a failed one what it got. */
const progress = (line: string) => process.stderr.write(`[${fixed((Date.now() - benchStarted) / 1000, 0)} s] ${line}\n`);

const database = await benchDatabase();
const handle = createDatabase(database.url);
const ctx = createDomainContext(handle.db, { storage: localFileStorage(mkdtempSync(path.join(tmpdir(), "bench-files-"))) });
const {
  receiver,
  caFile,
  companyId,
  interview,
  addresses,
  fast,
  startProductWorker,
  arrivals,
  writeCandidates,
  keepWhatIsChecked,
  settle,
  cpuMeter,
  drain,
  orderViolations,
} = await startDeliveryBench(database, handle, ctx, { concurrency });
const claimWithHistory: number[] = [];

/** Turns every event of the company not yet fanned out into messages, here rather than in a worker. */
const fanOutAll = async (company = companyId) => {
  while ((await fanOutCompany(ctx, company)).created > 0);
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

// 1. Idle latency: one submission at a time, commit to arrival of its three
// events, and where the time goes (from the log's own timestamps). The first
// submissions after the worker starts are its warm-up, printed apart: each
// connection plans a hot statement at its first run (over every day's
// partition, up to 100 ms), and Node compiles the hot code.
const worker = await startProductWorker();
const warmUpSubmissions = 5;
const coldLatencies: number[] = [];
const latencies: number[] = [];
const steps = {
  write: [] as number[],
  fannedOut: [] as number[],
  claimed: [] as number[],
  sent: [] as number[],
  recorded: [] as number[],
  nextClaimed: [] as number[],
};
for (let index = 0; index < warmUpSubmissions + 60; index++) {
  const candidate = await startCandidate(ctx, interview.id, { email: `latency${index}@example.com` });
  await completeSteps(ctx, interview, candidate.id);
  await scoreAndRecord(ctx, candidate.id);
  const before = receiver.received.length;
  const writing = Date.now();
  await submitAttempt(ctx, candidate.id);
  // The write's own transaction is not the pipeline's time: the clock starts once it has committed.
  const committed = Date.now();
  await arrivals(before + 3);
  const arrived = receiver.received.slice(before);
  if (index < warmUpSubmissions) {
    if (index === 0) coldLatencies.push(...arrived.map((request) => request.at - committed));
    continue;
  }
  steps.write.push(committed - writing);
  for (const request of arrived) latencies.push(request.at - committed);
  const [first, second] = await handle.sql<Array<{ created: number; started: number; recorded: number }>>`
    select extract(epoch from m.created_at) * 1000 as created, extract(epoch from a.started_at) * 1000 as started,
      extract(epoch from a.created_at) * 1000 as recorded
    from webhook_messages m join webhook_attempts a on a.message_id = m.id
    where m.candidate_id = ${candidate.id} order by a.started_at limit 2`;
  if (first && second) {
    steps.fannedOut.push(first.created - committed);
    steps.claimed.push(first.started - first.created);
    steps.sent.push(arrived[0]!.at - first.started);
    steps.recorded.push(first.recorded - arrived[0]!.at);
    steps.nextClaimed.push(second.started - first.recorded);
  }
}
latencies.sort((a, b) => a - b);
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
await stopChild(worker);
progress(`idle latency p50 ${median(latencies)} ms over ${latencies.length} arrivals`);

// 2. Baseline: as many signed POSTs of a real body as the next phase has
// events, by a bare task at the same concurrency, on the same database.
const candidates = Math.ceil(targetEvents / 2.6);
const firstEvents = await writeCandidates(candidates, 9);
const body = receiver.received.at(-1)!.body;
keepWhatIsChecked();
await settle();
receiver.received.length = 0;
await handle.sql`select graphile_worker.add_job('baseline-post', ${handle.sql.json({ url: receiver.url("/fast"), body, secret: fast.secret })}::json) from generate_series(1, ${firstEvents})`;
const baseline = fork("bench/baseline-worker.ts", [database.url, caFile, String(concurrency)], {
  execArgv: ["--import", "tsx"],
  stdio: ["ignore", "ignore", "inherit", "ipc"],
});
killOnExit(baseline);
const baselineCpu = cpuMeter(() => [baseline]);
const baselineRate = rateOf(await arrivals(firstEvents));
const baselineCpuPerDelivery = baselineCpu(firstEvents);
await stopChild(baseline);
progress(`bare graphile-worker task: ${fixed(baselineRate)}/s`);

// 2b. A sender with no database at all: the same bodies, signed and POSTed at the same concurrency.
receiver.received.length = 0;
const bareSender = fork("bench/bare-sender.ts", [caFile, String(concurrency)], {
  execArgv: ["--import", "tsx"],
  stdio: ["ignore", "ignore", "inherit", "ipc"],
});
killOnExit(bareSender);
await once(bareSender, "message");
bareSender.send({ url: receiver.url("/fast"), body, secret: fast.secret, count: firstEvents });
const bareRate = rateOf(await arrivals(firstEvents));
await stopChild(bareSender);
progress(`sender with no database: ${fixed(bareRate)}/s`);

// 3. Throughput with 1, 2 and 4 worker processes, the same number of events each.
const runs: Array<{ processes: number; events: number } & Awaited<ReturnType<typeof drain>>> = [];
for (const [index, processes] of [1, 2, 4].entries()) {
  const events = index === 0 ? firstEvents : await writeCandidates(candidates, 9 + index);
  runs.push({ processes, events, ...(await drain(events, processes)) });
  progress(`${processes} worker(s): ${fixed(runs.at(-1)!.rate)}/s, ${runs.at(-1)!.violations} out of order`);
}
const single = runs[0]!;

// 4. A receiver that takes 200 ms: throughput against what the concurrency allows.
receiver.answer(() => ({ status: 200, delayMs: 200 }));
const slowEvents = await writeCandidates(400, 20);
const slowAnswers = await drain(slowEvents, 1);
const allowed = concurrency / 0.2;
progress(`200 ms receiver: ${fixed(slowAnswers.rate)}/s of ${allowed} allowed`);

// 5. Another company's webhook answering in 10 s, with 10,000 messages
// waiting for it, beside the fast one: the fast one's rate, against the same load alone.
receiver.answer((request) => ({ status: 200, delayMs: request.path === "/slow" ? 10_000 : 0 }));
const isolationCandidates = Math.ceil(Math.min(targetEvents, 8000) / 2.6);
const alone = await drain(await writeCandidates(isolationCandidates, 30), 1);
const { companyId: slowCompanyId } = await companyWithInterview(ctx, "Slow receiver");
const slow = await createWebhook(ctx, slowCompanyId, { url: receiver.url("/slow") }, addresses);
await simulate(ctx, { companyId: slowCompanyId, interviews: 0, candidates: Math.ceil(slowBacklog / 2.6), bulk: true, seed: 31 });
await fanOutAll(slowCompanyId);
const slowWaiting = Number((await handle.sql`select count(*) from webhook_messages where webhook_id = ${slow.id} and status = 'pending'`)[0]!.count);
const beside = await drain(await writeCandidates(isolationCandidates, 32), 1);
await setWebhookEnabled(ctx, slowCompanyId, slow.id, false);
progress(`beside a slow webhook: ${fixed(beside.rate)}/s, alone ${fixed(alone.rate)}/s`);

// 6. The claim's cost, and a backlog's drain. Events are fanned out here, so
// the claim is timed against the queue the worker will find.
const firstReadySet = await writeCandidates(candidates, 40);
await fanOutAll();
const claimWithFirstRun = await claimMeanMs(database.url);
await drain(firstReadySet, 1);
const backlogEvents = await writeCandidates(Math.ceil(backlogMessages / 2.6), 41);
await fanOutAll();
const claimWithBacklog = await claimMeanMs(database.url);
progress(`claim with a backlog of ${backlogEvents}: ${fixed(claimWithBacklog, 2)} ms`);
const backlog = await drain(backlogEvents, 1);
progress(`backlog drained: ${fixed(backlog.rate)}/s`);

// 7. 35 days of delivered history in the log's partitions, with the first run's queue again.
await seedDeliveredHistory(handle, 35, Math.max(1000, Math.round(targetEvents / 2)));
await writeCandidates(candidates, 42).then(async (events) => {
  await fanOutAll();
  claimWithHistory.push(await claimMeanMs(database.url));
  await drain(events, 1);
});

// 8. A webhook limited to 50 messages a second, three worker processes, a minute.
const pacedRate = 50;
await setWebhookEnabled(ctx, companyId, fast.id, false);
const paced = await createWebhook(ctx, companyId, { url: receiver.url("/paced"), rateLimitPerSecond: pacedRate }, addresses);
await writeCandidates(Math.ceil((pacedRate * (pacedSeconds + 15)) / 2.6), 43);
await settle();
receiver.received.length = 0;
const pacedWorkers = await Promise.all([startProductWorker(), startProductWorker(), startProductWorker()]);
const pacedFrom = (await arrivals(20, "/paced"))[19]!.at;
await new Promise((resolve) => setTimeout(resolve, pacedSeconds * 1000 - (Date.now() - pacedFrom) + 200));
const pacedArrived = receiver.received.filter((request) => request.path === "/paced");
const pacedCounted = pacedArrived.filter((request) => request.at > pacedFrom && request.at <= pacedFrom + pacedSeconds * 1000).length / pacedSeconds;
await Promise.all(pacedWorkers.map(stopChild));
const pacedViolations = await orderViolations(pacedArrived);
await setWebhookEnabled(ctx, companyId, paced.id, false);

const verdict = (pass: boolean) => (pass ? "PASS" : "MISS");
const ordered = runs.every((run) => run.violations === 0) && beside.violations === 0 && backlog.violations === 0;
const flatClaim = claimWithHistory[0]! <= Math.max(claimWithFirstRun * 1.5, claimWithFirstRun + 0.5);
const statementsCell = (run: { statementsPerMessage: number | null }) =>
  run.statementsPerMessage === null ? "not measured" : fixed(run.statementsPerMessage, 2);
log(
  `\n${table([
    ["measure", "value", "baseline", "ratio / target", ""],
    [
      `deliveries/s, 1 worker (${single.events} events, ${concurrency} in flight to the webhook)`,
      fixed(single.rate),
      fixed(baselineRate),
      `${fixed((single.rate / baselineRate) * 100, 0)}% (≥ 75%)`,
      verdict(single.rate >= 0.75 * baselineRate),
    ],
    [
      "  the same, against a sender with no database (signs and POSTs the same bodies)",
      fixed(single.rate),
      fixed(bareRate),
      `${fixed((single.rate / bareRate) * 100, 0)}% (≥ 35%)`,
      verdict(single.rate >= 0.35 * bareRate),
    ],
    [
      "  CPU ms per delivery, PostgreSQL · delivering process",
      `${fixed(single.cpuPerDelivery.database, 2)} · ${fixed(single.cpuPerDelivery.process, 2)}`,
      `${fixed(baselineCpuPerDelivery.database, 2)} · ${fixed(baselineCpuPerDelivery.process, 2)}`,
      "",
      "",
    ],
    [
      "database statements per delivered message (1 worker)",
      statementsCell(single),
      "",
      "≤ 1",
      verdict(single.statementsPerMessage !== null && single.statementsPerMessage <= 1),
    ],
    ["commit → arrival p50 (idle)", `${fixed(percentile(latencies, 50))} ms`, "", "< 20 ms", verdict(percentile(latencies, 50) < 20)],
    ["commit → arrival p99 (idle)", `${fixed(percentile(latencies, 99))} ms`, "", "< 100 ms", verdict(percentile(latencies, 99) < 100)],
    [
      `  the first submission after the worker starts (not counted; ${warmUpSubmissions} warm-up submissions)`,
      `${coldLatencies.map((ms) => fixed(ms)).join(" · ")} ms`,
      "",
      "",
      "",
    ],
    [
      "  where it goes, p50 per step (ms)",
      `(the write itself ${fixed(median(steps.write))}, not counted) · commit → messages ${fixed(median(steps.fannedOut))} · → claimed ${fixed(median(steps.claimed))} · → arrived ${fixed(median(steps.sent))} · → recorded ${fixed(median(steps.recorded))} · → next claimed ${fixed(median(steps.nextClaimed))}`,
      "",
      "",
      "",
    ],
    ...runs
      .slice(1)
      .map((run) => [
        `deliveries/s, ${run.processes} workers (${run.events} events; statements/message ${statementsCell(run)})`,
        fixed(run.rate),
        fixed(single.rate),
        `${fixed((run.rate / single.rate) * 100, 0)}% of 1 worker (≥ 100%)`,
        verdict(run.rate >= single.rate),
      ]),
    [
      "candidates whose events arrived out of history order (every run)",
      String(runs.reduce((sum, run) => sum + run.violations, 0) + beside.violations + backlog.violations),
      "",
      "0",
      verdict(ordered),
    ],
    [
      `deliveries/s, receiver answers in 200 ms (${slowEvents} events)`,
      fixed(slowAnswers.rate),
      `${fixed(allowed)} allowed`,
      `${fixed((slowAnswers.rate / allowed) * 100, 0)}% (≥ 90%)`,
      verdict(slowAnswers.rate >= 0.9 * allowed),
    ],
    [
      `deliveries/s to a webhook beside one answering in 10 s with ${slowWaiting} messages waiting`,
      fixed(beside.rate),
      `${fixed(alone.rate)} alone`,
      `${fixed((beside.rate / alone.rate) * 100, 0)}% (≥ 90%)`,
      verdict(beside.rate >= 0.9 * alone.rate),
    ],
    [
      `deliveries/s draining a backlog of ${backlogEvents} messages`,
      fixed(backlog.rate),
      `${fixed(single.rate)} (${single.events} events)`,
      `${fixed((backlog.rate / single.rate) * 100, 0)}% (≥ 90%)`,
      verdict(backlog.rate >= 0.9 * single.rate),
    ],
    ["claim mean time, queue of the first run", `${fixed(claimWithFirstRun, 2)} ms`, "", "", ""],
    ["claim mean time, backlog", `${fixed(claimWithBacklog, 2)} ms`, "", "", ""],
    [
      "claim mean time, 35 days of history",
      `${fixed(claimWithHistory[0]!, 2)} ms`,
      `${fixed(claimWithFirstRun, 2)} ms without`,
      "flat (≤ 1.5× or + 0.5 ms)",
      verdict(flatClaim),
    ],
    [
      `a webhook limited to ${pacedRate}/s, 3 workers, over ${pacedSeconds} s (out of order: ${pacedViolations})`,
      `${fixed(pacedCounted, 2)}/s`,
      `${pacedRate}/s`,
      `${fixed((pacedCounted / pacedRate) * 100, 1)}% (± 5%)`,
      verdict(Math.abs(pacedCounted - pacedRate) <= 0.05 * pacedRate && pacedViolations === 0),
    ],
  ])}\n`,
);
log(`Database time, 1 worker, heaviest statements:\n${single.heaviest.map((line) => `  ${line}`).join("\n")}\n`);
await receiver.close();
await handle.close();
await database.stop();
process.exit(0);
