/**
 * `npm run bench:scale [-- --candidates 20000 --events 5000 --seconds 10]`
 *
 * The product run as several processes on one database, 1, 2 and 4 of each
 * kind, on 127.0.0.1 only:
 *
 * - web processes (the production build, each on its own port):
 *   requests per second for `GET /v1/candidates?limit=25` with the load
 *   spread evenly over them, and a burst of (per-key limit + 10) requests of
 *   one key spread over them, of which exactly the limit must be admitted;
 * - worker processes (`main.ts worker`): deliveries per second draining the
 *   same number of waiting events to a local HTTPS receiver, and every
 *   candidate's events arriving in the history's order.
 *
 * For each step also the database's share of the machine's CPU and its CPU
 * per request or delivery (its processes, read from /proc), and its top-level
 * statements per request or delivered message (pg_stat_statements, reset
 * before each step). Figures are compared with one process: adding processes
 * must not lower the throughput (≥ 90% of one process: on a small machine it
 * cannot grow much) nor change the database work per unit (within 10%).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDatabase } from "@/db/client";
import { simulate } from "@/server/demo/simulate";
import { createApiKey, createCompany, setCompanyRateLimits } from "@/server/domain/accounts";
import { createDomainContext } from "@/server/domain/context";
import { env } from "@/server/env";
import { localFileStorage } from "@/server/storage/file-storage";
import { apiCompany } from "../tests/support/api-fixtures";
import { startDeliveryBench } from "./deliveries";
import {
  benchDatabase,
  clientConnections,
  connectionsBackTo,
  databaseCpuSeconds,
  ensureBuild,
  fixed,
  measure,
  resetStatements,
  type Server,
  startProductServer,
  statementsSinceReset,
  table,
} from "./support";

const { values } = parseArgs({
  options: {
    candidates: { type: "string", default: "20000" },
    events: { type: "string", default: "5000" },
    seconds: { type: "string", default: "10" },
  },
});
const candidates = Number(values.candidates);
const events = Number(values.events);
const seconds = Number(values.seconds);
const steps = [1, 2, 4];
/** The API bench's load: 32 connections in all, however many processes share them. */
const connections = 32;
/** Requests one worker process has in flight to the webhook (the webhook bench's default). */
const concurrency = 10;
const log = (line: string) => process.stdout.write(`${line}\n`);

const database = await benchDatabase();
const handle = createDatabase(database.url);
const filesDir = mkdtempSync(path.join(tmpdir(), "interview-api-bench-files-"));
const ctx = createDomainContext(handle.db, { storage: localFileStorage(filesDir) });

type Step = {
  kind: "web" | "worker";
  processes: number;
  /** Requests or deliveries per second. */
  rate: number;
  /** Statements per request or delivered message; null without pg_stat_statements. */
  statements: number | null;
  databaseCpuMs: number;
  databaseShare: number;
  /** Database connections the processes had open at the end of the step. */
  connections: number;
  /** What must still hold with this many processes, and whether it did. */
  check: { holds: boolean; text: string };
};
const results: Step[] = [];

// 1. Workers: the same number of waiting events drained by 1, 2 and 4 processes.
const deliveries = await startDeliveryBench(database, handle, ctx, { concurrency });
// Warms the database's caches and the processes' compile cache, so the first step pays for neither.
await deliveries.drain(await deliveries.writeCandidates(100, 1), 1);
for (const [index, processes] of steps.entries()) {
  const waiting = await deliveries.writeCandidates(Math.ceil(events / 2.6), 2 + index);
  log(`workers: ${processes} draining ${waiting.toLocaleString("en")} events…`);
  const drained = await deliveries.drain(waiting, processes);
  results.push({
    kind: "worker",
    processes,
    rate: drained.rate,
    statements: drained.statementsPerMessage,
    databaseCpuMs: drained.cpuPerDelivery.database,
    // Its CPU per delivery at the rate delivered (start-up, which the rate leaves out, would dilute a share over the whole step).
    databaseShare: (drained.cpuPerDelivery.database * drained.rate) / 1000 / availableParallelism(),
    connections: drained.connections,
    check: { holds: drained.violations === 0, text: `${drained.violations} candidates out of history order` },
  });
}
await deliveries.receiver.close();

// 2. Web: a company to list, whose key's limits are raised so the load is never refused but pays the check.
const { id: listedCompany } = await createCompany(ctx, { name: "Listed" });
const { key: loadKey } = await createApiKey(ctx, { companyId: listedCompany, name: "load" });
await setCompanyRateLimits(ctx, listedCompany, { perKey: 1_000_000, perCompany: 1_000_000 });
const seeded = performance.now();
await simulate(ctx, { companyId: listedCompany, interviews: 4, candidates, bulk: true, seed: 42 });
log(`seeded ${candidates.toLocaleString("en")} candidates in ${fixed((performance.now() - seeded) / 1000)} s`);
await handle.sql`vacuum analyze`;

ensureBuild();
const serverEnv = { APP_SECRET: randomBytes(32).toString("hex"), NEXTAUTH_SECRET: randomBytes(32).toString("hex"), FILE_STORAGE_DIR: filesDir };
const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
const perKey = env.RATE_LIMIT_PER_KEY;
/** The per-key bucket gives one more request every this many milliseconds. */
const refillMs = 60_000 / perKey;

/**
 * (limit + 10) requests of a new key at once, spread over the servers. The
 * bucket refills one request every `refillMs`, and each request is decided at
 * the time it reaches `api_admit`, so the count is exact only when all are
 * decided within that, which a loaded machine's Next.js processes cannot
 * promise. So the bench holds them in the database before they are decided:
 * it locks the rate-limit buckets' table, which each request's admission
 * takes from, waits until every request waits on that lock, and lets go; all are then
 * decided at the database's pace. Should that still take longer than one
 * refill, it is tried again with another key (at most three times).
 */
async function rateLimitBurst(servers: Server[], step: number) {
  const burst = perKey + 10;
  const fire = (key: string, pathname: string) =>
    Promise.all(
      Array.from({ length: burst }, async (_, index) => {
        const response = await fetch(`${servers[index % servers.length]!.baseUrl}${pathname}`, { headers: auth(key) });
        await response.arrayBuffer();
        return response.status;
      }),
    );
  for (let attempt = 1; ; attempt++) {
    const { key, submitted } = await apiCompany(ctx, `Burst${step}x${attempt}`);
    // Opens as many sockets and pool connections as the burst needs.
    await fire(loadKey, "/v1/me");
    const lock = await handle.sql.reserve();
    await lock`begin`;
    await lock`lock table api_rate_limits in access exclusive mode`;
    const [{ pid }] = await lock<[{ pid: number }]>`select pg_backend_pid() as pid`;
    const answers = fire(key, `/v1/candidates/${submitted.id}`);
    let waiting = 0;
    for (const deadline = Date.now() + 60_000; waiting < burst && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      [{ waiting }] = await handle.sql<[{ waiting: number }]>`
        select count(*)::int as waiting from pg_stat_activity where ${pid}::int = any(pg_blocking_pids(pid))`;
    }
    const released = performance.now();
    await lock`commit`;
    lock.release();
    // Decided once no statement of the burst runs any more (Next.js may take longer to answer on a busy
    // machine). The statement is known by its start: pg_stat_activity keeps only the first 1 KB of a query.
    let deciding = burst;
    while (deciding > 0) {
      [{ deciding }] = await handle.sql<[{ deciding: number }]>`
        select count(*)::int as deciding from pg_stat_activity
        where datname = current_database() and state = 'active' and query like '%api_admit(%' and pid <> pg_backend_pid()`;
    }
    const ms = performance.now() - released;
    const statuses = await answers;
    const admitted = statuses.filter((status) => status === 200).length;
    const refused = statuses.filter((status) => status === 429).length;
    if (ms < refillMs || attempt === 3) {
      const others = statuses.length - admitted - refused;
      return {
        holds: admitted === perKey && refused === 10 && waiting === burst && ms < refillMs,
        text: `${burst} at once (${waiting} held in the database): ${admitted} admitted, ${refused} refused${others ? `, ${others} other` : ""}, all decided within ${fixed(ms, 0)} ms of release${attempt > 1 ? ` (try ${attempt})` : ""}`,
      };
    }
  }
}

for (const processes of steps) {
  log(`web: ${processes} processes…`);
  const own = await clientConnections(handle.sql);
  // Pools large enough for every request of the rate-limit burst to wait in the database at once.
  const pools = { WEB_DATABASE_POOL_SIZE: String(Math.ceil((perKey + 10) / processes)) };
  const servers = await Promise.all(Array.from({ length: processes }, () => startProductServer(database.url, { ...serverEnv, ...pools })));
  let counting = false;
  let cpuBefore = 0;
  let startedAt = 0;
  const load = await measure(
    servers.map((server) => `${server.baseUrl}/v1/candidates?limit=25`),
    {
      connections,
      seconds,
      headers: auth(loadKey),
      measured: async () => {
        counting = await resetStatements(handle.sql);
        cpuBefore = databaseCpuSeconds(database.directory) ?? 0;
        startedAt = performance.now();
      },
    },
  );
  const databaseSeconds = (databaseCpuSeconds(database.directory) ?? 0) - cpuBefore;
  const elapsed = (performance.now() - startedAt) / 1000;
  const statements = counting ? (await statementsSinceReset(handle.sql)) / load.requests : null;
  const connectionsOpen = (await clientConnections(handle.sql)) - own;
  const burst = await rateLimitBurst(servers, processes);
  results.push({
    kind: "web",
    processes,
    rate: load.requestsPerSecond,
    statements,
    databaseCpuMs: (databaseSeconds * 1000) / load.requests,
    databaseShare: databaseSeconds / (elapsed * availableParallelism()),
    connections: connectionsOpen,
    check: {
      holds: burst.holds && load.errors === 0,
      text: `${load.errors > 0 ? `${load.errors} errors under load; ` : ""}limit ${perKey}/min per key: ${burst.text}`,
    },
  });
  await Promise.all(servers.map((server) => server.stop()));
  await connectionsBackTo(handle.sql, own);
}

const label = { web: "web, GET /v1/candidates?limit=25 (req/s)", worker: "worker, deliveries/s" };
const within = (value: number, base: number, share: number) => Math.abs(value / base - 1) <= share;
const rows = [["processes", "throughput", "vs 1", "DB CPU share", "DB CPU ms/unit", "statements/unit", "vs 1", "DB conns", "checks"]];
const verdicts: string[] = [];
for (const kind of ["web", "worker"] as const) {
  const own = results.filter((step) => step.kind === kind);
  const single = own[0]!;
  rows.push([label[kind], "", "", "", "", "", "", "", ""]);
  for (const step of own) {
    const rateRatio = step.rate / single.rate;
    const statementsRatio = step.statements !== null && single.statements ? step.statements / single.statements : null;
    rows.push([
      `  ${step.processes}`,
      fixed(step.rate),
      `${fixed(rateRatio * 100, 0)}%`,
      `${fixed(step.databaseShare * 100, 0)}%`,
      fixed(step.databaseCpuMs, 2),
      step.statements === null ? "not measured" : fixed(step.statements, 2),
      statementsRatio === null ? "" : `${fixed(statementsRatio * 100, 0)}%`,
      String(step.connections),
      step.check.text,
    ]);
    const name = `${kind}, ${step.processes} process${step.processes > 1 ? "es" : ""}`;
    verdicts.push(`${step.check.holds ? "PASS" : "MISS"} ${name}: ${step.check.text}`);
    if (step === single) continue;
    verdicts.push(`${rateRatio >= 0.9 ? "PASS" : "MISS"} ${name}: throughput ${fixed(rateRatio * 100, 0)}% of 1 process (target ≥ 90%)`);
    verdicts.push(
      statementsRatio === null
        ? `MISS ${name}: statements per unit not measured (pg_stat_statements is not loaded)`
        : `${within(step.statements!, single.statements!, 0.1) ? "PASS" : "MISS"} ${name}: ${fixed(step.statements!, 2)} statements per unit against ${fixed(single.statements!, 2)} with 1 process (target within 10%)`,
    );
  }
}
log(`\n${availableParallelism()} CPUs; ${connections} connections spread over the web processes; ${concurrency} deliveries in flight per worker process.\n`);
log(`${table(rows)}\n`);
log(verdicts.join("\n"));

await handle.close();
await database.stop();
process.exit(0);
