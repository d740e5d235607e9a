/**
 * What the webhook benchmarks share: a company with an interview and a webhook
 * to a local HTTPS receiver, the product's worker processes (`main.ts worker`,
 * as `npm run start:worker` runs them) delivering to it, and what a drain of
 * waiting events costs: deliveries per second, database statements per
 * delivered message, CPU per delivery, and whether every candidate's events
 * arrived in the history's order.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDatabase, type DatabaseHandle } from "@/db/client";
import { ensureHistoryPartitions } from "@/db/partitions";
import { executePrepared } from "@/db/prepared";
import { simulate } from "@/server/demo/simulate";
import { createCompany, createUser } from "@/server/domain/accounts";
import type { DomainContext } from "@/server/domain/context";
import { appSecret, env } from "@/server/env";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { claimStatement } from "@/server/webhooks/delivery/claim";
import { makeInterview } from "../tests/support/fixtures";
import { type Received, startReceiver } from "../tests/support/receiver";
import {
  type BenchDatabase,
  clientConnections,
  connectionsBackTo,
  databaseCpuSeconds,
  heaviestStatements,
  killOnExit,
  resetStatements,
  statementsSinceReset,
} from "./support";

/** Deliveries per second from the first arrival to the last, so process start-up does not count. */
export const rateOf = (arrived: Received[]) => (arrived.length - 1) / ((arrived.at(-1)!.at - arrived[0]!.at) / 1000);

/** CPU seconds a child process has used so far (Linux; 0 elsewhere). */
function processCpuSeconds(child: ChildProcess) {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

export type DeliveryBench = Awaited<ReturnType<typeof startDeliveryBench>>;

/** `concurrency`: requests one worker process has in flight to the webhook (WEBHOOK_CONCURRENCY). */
export async function startDeliveryBench(database: BenchDatabase, handle: DatabaseHandle, ctx: DomainContext, options: { concurrency: number }) {
  const receiver = await startReceiver();
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), "bench-ca-")), "ca.pem");
  writeFileSync(caFile, receiver.ca);

  const { id: companyId } = await createCompany(ctx, { name: "Bench" });
  await createUser(ctx, { companyId, email: "bench-admin@example.com", name: "Admin", role: "admin", password: "long enough password" });
  const interview = await makeInterview(ctx, companyId);
  const addresses = { allowTargets: [receiver.target] };
  const fast = await createWebhook(ctx, companyId, { url: receiver.url("/fast") }, addresses);

  function startProductWorker(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ["--import", "tsx", "server/runtime/main.ts", "worker"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        APP_SECRET: appSecret(),
        NEXTAUTH_SECRET: env.NEXTAUTH_SECRET,
        DATABASE_URL: database.url,
        WEBHOOK_ALLOW_TARGETS: receiver.target,
        WEBHOOK_CA_FILE: caFile,
        WEBHOOK_CONCURRENCY: String(options.concurrency),
        // Several workers on one machine: each takes any free port for its /metrics listener.
        WORKER_HTTP_PORT: "0",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    killOnExit(child);
    return new Promise((resolve, reject) => {
      child.stderr!.on("data", (chunk: Buffer) => chunk.toString().includes("worker started") && resolve(child));
      child.once("exit", (code) => reject(new Error(`worker exited ${code}`)));
    });
  }

  /** Waits until `count` requests to `hookPath` (any, when not given) have arrived; returns them. */
  async function arrivals(count: number, hookPath?: string, timeoutMs = 900_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    // Counted as they come, not by scanning every request each poll: that scan grows with a phase's arrivals, and on two cores
    // it took time from the worker and the database.
    const arrived: Received[] = [];
    for (let counted = 0; ; ) {
      for (; counted < receiver.received.length; counted++) {
        const request = receiver.received[counted]!;
        if (!hookPath || request.path === hookPath) arrived.push(request);
      }
      if (arrived.length >= count) return arrived.slice(0, count);
      if (Date.now() > deadline) throw new Error(`only ${arrived.length} of ${count} arrived`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const eventCount = async () => Number((await handle.sql`select count(*) from events`)[0]!.count);

  /** Bulk-writes candidates (their events wait for a worker); returns how many events they made. */
  async function writeCandidates(candidates: number, seed: number) {
    const before = await eventCount();
    await simulate(ctx, { companyId, interviews: 0, candidates, bulk: true, seed });
    return (await eventCount()) - before;
  }

  /**
   * From now on the receiver keeps, of each request, what the bench checks: its path, its time, its event's and
   * candidate's ids. Held whole, a backlog's 200,000 requests (850 MB) tripled the bench process's CPU per arrival, taken
   * from the worker and the database on two cores.
   */
  function keepWhatIsChecked() {
    receiver.keep((request) => {
      const { id, candidate } = JSON.parse(request.body) as { id?: string; candidate?: { id: string } };
      // Anything but an event's body (none is sent after this today) is kept whole.
      if (!id || !candidate) return request;
      return { method: request.method, path: request.path, at: request.at, headers: {}, body: JSON.stringify({ id, candidate: { id: candidate.id } }) };
    });
  }

  /** Arrivals whose event came before one of the same candidate already received at the same webhook (first arrivals only). */
  async function orderViolations(arrived: Received[]) {
    const history = await handle.sql<Array<{ id: string }>>`select id from events order by tx_id, seq`;
    const place = new Map(history.map((event, index) => [event.id, index]));
    const last = new Map<string, number>();
    const seen = new Set<string>();
    let violations = 0;
    for (const request of arrived) {
      const body = JSON.parse(request.body) as { id: string; candidate: { id: string } };
      if (seen.has(`${request.path}|${body.id}`)) continue;
      seen.add(`${request.path}|${body.id}`);
      const chain = `${request.path}|${body.candidate.id}`;
      const at = place.get(body.id)!;
      if (at < (last.get(chain) ?? -1)) violations++;
      last.set(chain, at);
    }
    return violations;
  }

  /**
   * Vacuums, analyzes and checkpoints, so no phase pays for an earlier one's
   * dead rows, autovacuum or dirty buffers (the checkpoint needs a superuser,
   * as the embedded server's is; elsewhere it is skipped).
   */
  async function settle() {
    await handle.sql`vacuum analyze`;
    await handle.sql`checkpoint`.catch(() => {});
  }

  /** CPU milliseconds per delivery, of the database and of the delivering processes, over a phase. */
  function cpuMeter(processes: () => ChildProcess[]) {
    const databaseBefore = databaseCpuSeconds(database.directory) ?? 0;
    const processesBefore = processes().reduce((sum, child) => sum + processCpuSeconds(child), 0);
    return (deliveries: number) => ({
      database: (((databaseCpuSeconds(database.directory) ?? 0) - databaseBefore) * 1000) / deliveries,
      process: ((processes().reduce((sum, child) => sum + processCpuSeconds(child), 0) - processesBefore) * 1000) / deliveries,
    });
  }

  /** Drains `events` waiting events with `processes` worker processes. */
  async function drain(events: number, processes: number, hookPath = "/fast") {
    await settle();
    receiver.received.length = 0;
    const counting = await resetStatements(handle.sql);
    const own = await clientConnections(handle.sql);
    const workers: ChildProcess[] = [];
    const cpu = cpuMeter(() => workers);
    workers.push(...(await Promise.all(Array.from({ length: processes }, () => startProductWorker()))));
    const arrived = await arrivals(events, hookPath);
    const cpuPerDelivery = cpu(events);
    // The bench's own `count(*) from events` is not the server's work.
    const statements = counting ? await statementsSinceReset(handle.sql, "%count(*) from events%") : null;
    const connections = (await clientConnections(handle.sql)) - own;
    const heaviest = counting ? await heaviestStatements(handle.sql, 4) : [];
    await Promise.all(workers.map(stopChild));
    await connectionsBackTo(handle.sql, own);
    return {
      rate: rateOf(arrived),
      statementsPerMessage: statements === null ? null : statements / events,
      violations: await orderViolations(arrived),
      cpuPerDelivery,
      /** Connections the worker processes had open at the end (idle ones stay open). */
      connections,
      heaviest,
    };
  }

  return {
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
  };
}

/**
 * The claim's mean time in milliseconds: its one statement run `runs` times
 * on a connection that plans as the worker's do (prepared, planned once),
 * each time in a transaction rolled back, so nothing is taken: what it costs
 * to claim up to 10 of the queue's due messages as the dispatcher does.
 */
export async function claimMeanMs(url: string, runs = 100) {
  const worker = createDatabase(url, { max: 1, planOnce: true });
  let total = 0;
  for (let run = 0; run < runs + 5; run++) {
    await worker.db
      .transaction(async (tx) => {
        const started = performance.now();
        await executePrepared(tx, claimStatement(new Date(), { limit: 10, perWebhook: 10 }));
        // The first runs prepare and plan; they are not counted.
        if (run >= 5) total += performance.now() - started;
        tx.rollback();
      })
      .catch(() => {});
  }
  await worker.close();
  return total / runs;
}

/**
 * `days` days of delivered history, `perDay` messages a day with one attempt
 * each, written straight into the log's daily partitions (made first, back
 * to the oldest day), as a busy month of deliveries leaves them.
 */
export async function seedDeliveredHistory(handle: DatabaseHandle, days: number, perDay: number) {
  const now = new Date();
  await ensureHistoryPartitions(handle.db, now);
  await ensureHistoryPartitions(handle.db, new Date(now.getTime() - (days - 29) * 24 * 3600_000));
  await handle.sql`
    with day as (select generate_series(1, ${days}) as d), made as (
      insert into webhook_messages (id, company_id, webhook_id, origin, event_id, event_type, candidate_id, event_tx_id, event_seq, status,
        attempt_count, next_attempt_at, completed_at, created_at, history_at)
      select 'msg_hist' || d || '_' || n, w.company_id, w.id, 'event', 'evt_hist' || d || '_' || n, 'candidate.ready', 'cand_hist' || n, 0, n, 'succeeded',
        1, t, t, t, t
      from day, generate_series(1, ${perDay}) n, (select id, company_id from webhooks order by created_at limit 1) w,
        lateral (select now() - d * interval '1 day' + n * interval '1 millisecond' as t) at
      returning id, webhook_id, history_at
    )
    insert into webhook_attempts (id, message_id, webhook_id, attempt, url, started_at, duration_ms, request_headers, response_status, succeeded, created_at, history_at)
    select 'att_' || id, id, webhook_id, 1, 'https://example.com', history_at, 5, '{}', 200, true, history_at, history_at from made`;
  await handle.sql`vacuum analyze webhook_messages`;
}
