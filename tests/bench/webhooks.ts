/**
 * `npm run bench:webhooks [-- --events 20000]`
 *
 * Deliveries per second and commit-to-arrival latency of the webhook pipeline
 * (the real worker process: fan-out, ordering, signing, delivery log) against
 * a bare graphile-worker task that signs and POSTs the same body, measured in
 * the same run to the same local HTTPS receiver.
 */
import { type ChildProcess, fork, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDatabase } from "@/db/client";
import { simulate } from "@/server/demo/simulate";
import { createCompany, createUser } from "@/server/domain/accounts";
import { submitAttempt } from "@/server/domain/attempts";
import { createDomainContext } from "@/server/domain/context";
import { env } from "@/server/env";
import { localFileStorage } from "@/server/storage/file-storage";
import { createWebhook } from "@/server/webhooks/manage";
import { completeSteps, makeInterview, scoreAndRecord, startCandidate } from "../support/fixtures";
import { startReceiver } from "../support/receiver";
import { benchDatabase, fixed, table } from "./support";

const { values } = parseArgs({ options: { events: { type: "string", default: "20000" }, concurrency: { type: "string", default: "10" } } });
const targetEvents = Number(values.events);
const concurrency = Number(values.concurrency);
const log = (line: string) => process.stdout.write(`${line}\n`);

const database = await benchDatabase();
const handle = createDatabase(database.url);
const ctx = createDomainContext(handle.db, { storage: localFileStorage(mkdtempSync(path.join(tmpdir(), "bench-files-"))) });
const receiver = await startReceiver();
const caFile = path.join(mkdtempSync(path.join(tmpdir(), "bench-ca-")), "ca.pem");
writeFileSync(caFile, receiver.ca);

const { id: companyId } = await createCompany(ctx, { name: "Bench" });
await createUser(ctx, { companyId, email: "bench-admin@example.com", name: "Admin", role: "admin", password: "long enough password" });
const interview = await makeInterview(ctx, companyId);
const { secret } = await createWebhook(ctx, companyId, { url: receiver.url() }, { allowTargets: [receiver.target] });

function startProductWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/runtime/main.ts", "worker"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      APP_SECRET: env.APP_SECRET,
      NEXTAUTH_SECRET: env.NEXTAUTH_SECRET,
      DATABASE_URL: database.url,
      WEBHOOK_ALLOW_TARGETS: receiver.target,
      WEBHOOK_CA_FILE: caFile,
      WORKER_CONCURRENCY: String(concurrency),
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => chunk.toString().includes("worker started") && resolve(child));
    child.once("exit", (code) => reject(new Error(`worker exited ${code}`)));
  });
}
const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

/** Waits until the receiver has `count` requests; returns the time of the last. */
async function arrivals(count: number, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (receiver.received.length < count) {
    if (Date.now() > deadline) throw new Error(`only ${receiver.received.length} of ${count} arrived`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return receiver.received[count - 1]!.at;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

// 1. Idle latency: one submission at a time, commit to arrival of its events.
let worker = await startProductWorker();
const latencies: number[] = [];
for (let index = 0; index < 60; index++) {
  const candidate = await startCandidate(ctx, interview.id, { email: `latency${index}@example.com` });
  await completeSteps(ctx, interview, candidate.id);
  await scoreAndRecord(ctx, candidate.id);
  const before = receiver.received.length;
  const committed = Date.now();
  await submitAttempt(ctx, candidate.id);
  await arrivals(before + 3);
  for (const request of receiver.received.slice(before)) latencies.push(request.at - committed);
}
latencies.sort((a, b) => a - b);
await stop(worker);

// 2. Throughput: events recorded while the worker is stopped, then drained.
receiver.received.length = 0;
const eventsBefore = Number((await handle.sql`select count(*) from events`)[0]!.count);
let candidates = Math.ceil(targetEvents / 2.6);
await simulate(ctx, { companyId, interviews: 0, candidates, bulk: true, seed: 9 });
const productEvents = Number((await handle.sql`select count(*) from events`)[0]!.count) - eventsBefore;
let started = Date.now();
worker = await startProductWorker();
const productDone = await arrivals(productEvents);
const productRate = productEvents / ((productDone - started) / 1000);
await stop(worker);

// 3. Baseline: the same number of signed POSTs of a real body by a bare task.
const body = receiver.received.at(-1)!.body;
receiver.received.length = 0;
await handle.sql`select graphile_worker.add_job('baseline-post', ${handle.sql.json({ url: receiver.url(), body, secret })}::json) from generate_series(1, ${productEvents})`;
started = Date.now();
const baseline = fork("tests/bench/baseline-worker.ts", [database.url, caFile, String(concurrency)], {
  execArgv: ["--import", "tsx"],
  stdio: ["ignore", "ignore", "inherit", "ipc"],
});
const baselineDone = await arrivals(productEvents);
const baselineRate = productEvents / ((baselineDone - started) / 1000);
await stop(baseline);

// 4. A receiver that takes 200 ms: throughput against what the concurrency allows.
receiver.received.length = 0;
receiver.answer(() => ({ status: 200, delayMs: 200 }));
const slowBefore = Number((await handle.sql`select count(*) from events`)[0]!.count);
candidates = 400;
await simulate(ctx, { companyId, interviews: 0, candidates, bulk: true, seed: 10 });
const slowEvents = Number((await handle.sql`select count(*) from events`)[0]!.count) - slowBefore;
started = Date.now();
worker = await startProductWorker();
const slowDone = await arrivals(slowEvents);
const slowRate = slowEvents / ((slowDone - started) / 1000);
const allowed = concurrency / 0.2;
await stop(worker);

log(
  `\n${table([
    ["measure", "value", "baseline", "ratio / target"],
    [
      `deliveries/s (${productEvents} events, concurrency ${concurrency})`,
      fixed(productRate),
      fixed(baselineRate),
      `${fixed((productRate / baselineRate) * 100, 0)}% (≥ 70%)`,
    ],
    ["commit → arrival p50 (idle)", `${fixed(percentile(latencies, 50))} ms`, "", "< 20 ms"],
    ["commit → arrival p99 (idle)", `${fixed(percentile(latencies, 99))} ms`, "", "< 100 ms"],
    [
      `deliveries/s, receiver answers in 200 ms (${slowEvents} events)`,
      fixed(slowRate),
      `${fixed(allowed)} allowed`,
      `${fixed((slowRate / allowed) * 100, 0)}% (≥ 80%)`,
    ],
  ])}\n`,
);
await receiver.close();
await handle.close();
await database.stop();
process.exit(0);
