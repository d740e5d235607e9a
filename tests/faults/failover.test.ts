/**
 * A primary that fails over, on Debian's PostgreSQL (TEST_POSTGRES_BIN):
 * a standby made with `pg_basebackup -R`, replicating synchronously
 * (tests/support/replicated-postgres.ts). Every process reaches the primary
 * through a loopback TCP proxy, as a DNS name or a virtual IP looks to it:
 * 2 web processes through PgBouncer in transaction mode (docs/operations.md's
 * recipe) and 3 worker processes directly, so this is also the fault run of
 * the whole topology the operations guide describes.
 *
 * While candidates are written, webhooks delivered and a client follows
 * GET /v1/events with its cursor, the primary stops at once (`-m immediate`),
 * the standby is promoted, and a few seconds later the proxy points at it.
 *
 * - every write that was acknowledged is in the history afterwards, and
 *   every event of the history reaches both webhooks, each candidate's in
 *   history order (duplicates counted: delivery is at least once);
 * - the client following the history saw it exactly: nothing skipped,
 *   nothing twice, never back;
 * - while no primary answers, /v1 answers 200 or 503 `external_service_error`
 *   with `Retry-After` within a few seconds, never a 500 or a hung request;
 *   /readyz says why; no process exits, and none reconnects in a busy loop;
 * - the times from the switch to the first 200 and to the first delivery
 *   are printed (bench/results/2026-12-04-failover.md records runs of them).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type DatabaseHandle } from "@/db/client";
import { createRandom } from "@/server/demo/random";
import { setCompanyRateLimits } from "@/server/domain/accounts";
import { submitAttempt } from "@/server/domain/attempts";
import { createDomainContext, type DomainContext } from "@/server/domain/context";
import { changeStatus } from "@/server/domain/statuses";
import { localFileStorage } from "@/server/storage/file-storage";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { type ApiCompany, apiCompany } from "../support/api-fixtures";
import type { TestDatabase } from "../support/database";
import { requireDebianTool } from "../support/debian-tools";
import { awaitAcceptances, historyOf, keepLedger, printReckoning, reckon } from "../support/delivery-ledger";
import { completeSteps, scoreAndRecord, startCandidate } from "../support/fixtures";
import { type PgBouncer, startPgBouncer } from "../support/pgbouncer";
import { type Receiver, startReceiver } from "../support/receiver";
import { type ReplicatedPostgres, startReplicatedPostgres } from "../support/replicated-postgres";
import { callApi, useTestServer } from "../support/server";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";
import { allowReceiver } from "../support/webhook-fixtures";
import { useWorkerProcesses, type WorkerProcess } from "../support/worker-process";

const binaries = process.env.TEST_POSTGRES_BIN;
const candidateCount = 24;
const writers = 3;
/** How long after the primary's crash the proxy points at the promoted standby (a DNS TTL, a health check's interval). */
const switchAfterMs = 6_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (!binaries)
  process.stderr.write(
    "\n  The failover test SKIPPED: it runs on Debian's PostgreSQL (TEST_POSTGRES_BIN=$(bash .ci/stock-postgres bin)), as .ci/run does.\n\n",
  );

describe.skipIf(!binaries || !requireDebianTool("pgbouncer"))("a primary that fails over", { timeout: 420_000 }, () => {
  let folder: string;
  let servers: ReplicatedPostgres;
  let proxy: TcpProxy;
  let bouncer: PgBouncer;
  let receiver: Receiver;
  let caFile: string;
  let writer: DatabaseHandle;
  let ctx: DomainContext;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), "interview-api-failover-"));
    servers = await startReplicatedPostgres(folder, "failover", binaries!);
    proxy = await startTcpProxy(servers.primaryUrl);
    bouncer = await startPgBouncer(proxy.url, 4);
    receiver = await startReceiver();
    caFile = path.join(folder, "ca.pem");
    writeFileSync(caFile, receiver.ca);
    // The writer (the interview app, which is not under test) also reaches the database through the proxy.
    writer = createDatabase(proxy.url);
    ctx = createDomainContext(writer.db, { storage: localFileStorage(path.join(folder, "files")) });
  }, 120_000);
  afterAll(async () => {
    await writer?.close();
    await bouncer?.stop();
    await proxy?.close();
    await servers?.stop();
    await receiver?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const webOf = () =>
    useTestServer({
      get url() {
        return bouncer.url;
      },
      filesDir: mkdtempSync(path.join(tmpdir(), "interview-api-failover-files-")),
    } as TestDatabase);
  const webs = [webOf(), webOf()];
  const startWorker = useWorkerProcesses(() => ({
    DATABASE_URL: proxy.url,
    WEBHOOK_ALLOW_TARGETS: receiver.target,
    WEBHOOK_CA_FILE: caFile,
    WEBHOOK_ATTEMPT_LEASE_SECONDS: "11",
  }));

  it("loses nothing acknowledged, delivers in order, answers 503 while no primary answers, and recovers", async () => {
    const seed = process.env.FAULT_SEED ? Number(process.env.FAULT_SEED) : Math.floor(Math.random() * 2 ** 31);
    console.log(`failover: seed ${seed} (replay with FAULT_SEED=${seed})`);
    const pacing = createRandom(seed);
    const company = await apiCompany(ctx, "Failover");
    await setCompanyRateLimits(ctx, company.companyId, { perKey: 100_000, perCompany: 100_000 });
    const webhooks = ["/a", "/b"];
    for (const hookPath of webhooks)
      await createWebhook(ctx, company.companyId, { url: receiver.url(`${hookPath}/${company.companyId}`) }, allowReceiver(receiver));
    // The receiver accepts every message: a refused one would be retried a minute later (the other fault runs refuse some).
    const ledger = keepLedger(receiver, { chance: () => false, int: (min) => min });
    const workers: WorkerProcess[] = await Promise.all([0, 1, 2].map(() => startWorker()));

    const running = { stop: false };
    const written = writeThroughFailover(ctx, company, pacing, running);
    const follower = followHistory(company.key, running);
    const probes = probeApi(company.key, running);

    // A third of the candidates in, the primary's host dies.
    while (written.finished() < candidateCount / 3) await sleep(100);
    await servers.crashPrimary();
    const crashedAt = Date.now();
    await sleep(2_000);
    const outage = {
      web: await fetch(`${webs[0]!.baseUrl}/readyz`).then(async (response) => ({ status: response.status, body: await response.json() })),
      worker: await fetch(`${workers[0]!.httpUrl}/readyz`).then(async (response) => ({ status: response.status, body: await response.json() })),
    };
    const acceptedBefore = { count: proxy.accepted(), at: Date.now() };
    await servers.promoteStandby();
    await sleep(crashedAt + switchAfterMs - Date.now());
    const connectionsPerSecond = ((proxy.accepted() - acceptedBefore.count) * 1000) / (Date.now() - acceptedBefore.at);
    proxy.switchTo(servers.standbyUrl);
    const switchedAt = Date.now();

    const acknowledged = await written.done;
    running.stop = true;
    const answers = await probes;

    // The history on the promoted standby holds every acknowledged write.
    const standby = createDatabase(servers.standbyUrl);
    try {
      const history = await historyOf(standby.sql, company.companyId);
      const historyCandidates = history.map((event) => event.candidateId);
      for (const [candidateId, events] of acknowledged)
        expect(historyCandidates.filter((id) => id === candidateId).length, `candidate ${candidateId}`).toBeGreaterThanOrEqual(events);

      const expected = history.length * webhooks.length;
      await awaitAcceptances(ledger, expected, switchedAt, 240_000);
      const firstDelivery = ledger.accepted.find((entry) => entry.at > switchedAt)?.at;
      const reckoning = reckon(history, ledger, webhooks);
      printReckoning("failover", seed, reckoning);
      const outputs = workers.map((worker) => worker.output().slice(-1500)).join("\n---\n");
      expect(reckoning.lost, `seed ${seed}\n${outputs}`).toBe(0);
      expect(reckoning.outOfOrder, `seed ${seed}`).toEqual([]);
      expect(ledger.mismatchedIds).toEqual([]);

      // The follower, drained, saw the history exactly once and in order.
      expect(await follower.drain()).toEqual(history.map((event) => event.id));

      const firstOk = answers.find((answer) => answer.at > switchedAt && answer.status === 200);
      const during = answers.filter((answer) => answer.at > crashedAt && answer.at < switchedAt);
      console.log(
        `failover: seed ${seed}: ${acknowledged.size} candidates written, ${written.cut()} cut off by the crash; ` +
          `/v1 while no primary answered: ${JSON.stringify(countOf(during))}, the slowest in ${Math.max(0, ...during.map((answer) => answer.ms))} ms; ` +
          `first 200 ${((firstOk!.at - switchedAt) / 1000).toFixed(1)} s and first delivery ${(((firstDelivery ?? Number.NaN) - switchedAt) / 1000).toFixed(1)} s after the switch; ` +
          `${connectionsPerSecond.toFixed(1)} connections a second tried through the proxy while no primary answered`,
      );
      for (const answer of answers) {
        expect([200, 503], JSON.stringify(answer)).toContain(answer.status);
        if (answer.status === 503) expect(answer).toMatchObject({ error: "external_service_error", retryAfter: "5" });
        expect(answer.ms, JSON.stringify(answer)).toBeLessThan(12_000);
      }
      expect(during.some((answer) => answer.status === 503)).toBe(true);
      expect(firstOk!.at - switchedAt).toBeLessThan(15_000);
      expect(firstDelivery! - switchedAt).toBeLessThan(30_000);

      expect(outage.web).toMatchObject({ status: 503, body: { status: "unavailable", reason: expect.stringContaining("database") } });
      expect(outage.worker).toMatchObject({ status: 503, body: { status: "unavailable", reason: expect.stringContaining("database") } });
      // Five processes, each pool backing off, not a reconnecting loop.
      expect(connectionsPerSecond).toBeLessThan(40);
      for (const worker of workers) expect(worker.child.exitCode, worker.output().slice(-2000)).toBeNull();
      for (const output of [...webs.map((web) => web.logs()), ...workers.map((worker) => worker.output())]) {
        const errors = output.split("\n").filter((line) => line.includes('"level":"error"'));
        expect(errors, errors.join("\n").slice(0, 4000)).toEqual([]);
      }
    } finally {
      await standby.close();
    }
  });

  /**
   * Candidates written by `writers` writers until `candidateCount` are through.
   * A step the database refuses cuts its candidate's journey (what it wrote
   * may or may not have been committed); the writer waits for the database
   * and starts the next one. `done`: for each candidate, how many events its
   * acknowledged steps wrote (the submission 3, the decision 1 more).
   */
  function writeThroughFailover(ctx: DomainContext, company: ApiCompany, pacing: ReturnType<typeof createRandom>, running: { stop: boolean }) {
    const acknowledged = new Map<string, number>();
    let finished = 0;
    let cut = 0;
    let next = 0;
    const write = async () => {
      while (next < candidateCount && !running.stop) {
        const index = next++;
        try {
          const candidate = await startCandidate(ctx, company.interview.id, { email: `c${index}@failover.example` });
          await completeSteps(ctx, company.interview, candidate.id);
          await scoreAndRecord(ctx, candidate.id, 40 + (index % 50));
          await submitAttempt(ctx, candidate.id);
          acknowledged.set(candidate.id, 3);
          await changeStatus(ctx, candidate.id, { to: index % 2 ? "shortlisted" : "rejected", by: { type: "team", name: "Ana" } });
          acknowledged.set(candidate.id, 4);
          finished++;
        } catch {
          cut++;
          // The database is gone: wait until it answers again before starting the next candidate.
          while (
            !running.stop &&
            !(await writer.sql`select 1`.then(
              () => true,
              () => false,
            ))
          )
            await sleep(500);
        }
        await sleep(pacing.int(100, 400));
      }
    };
    return {
      done: Promise.all(Array.from({ length: writers }, write)).then(() => acknowledged),
      finished: () => finished,
      cut: () => cut,
    };
  }

  /** A client that polls GET /v1/events with its cursor, alternating between the web processes, retrying what is not a 200. */
  function followHistory(key: string, running: { stop: boolean }) {
    const seen: string[] = [];
    let cursor: string | undefined;
    let turn = 0;
    const poll = async () => {
      const web = webs[turn++ % webs.length]!;
      const response = await callApi(web, `/v1/events?limit=25${cursor ? `&after=${cursor}` : ""}`, { key });
      if (response.status !== 200) return false;
      const page = response.body.data;
      seen.push(...page.events.map((event: { id: string }) => event.id));
      cursor = page.next_cursor;
      return page.has_more as boolean;
    };
    const following = (async () => {
      while (!running.stop) if (!(await poll().catch(() => false))) await sleep(200);
    })();
    return {
      drain: async () => {
        await following;
        while (await poll());
        return seen;
      },
    };
  }

  type Answer = { at: number; status: number; error: string | null; retryAfter: string | null; ms: number };

  /** Every 200 ms, one request to each web process: its status, error, Retry-After and time. */
  async function probeApi(key: string, running: { stop: boolean }): Promise<Answer[]> {
    const answers: Answer[] = [];
    while (!running.stop) {
      await Promise.all(
        webs.map(async (web) => {
          const started = Date.now();
          const response = await callApi(web, "/v1/candidates?limit=1", { key });
          answers.push({
            at: Date.now(),
            status: response.status,
            error: response.body?.error ?? null,
            retryAfter: response.headers.get("retry-after"),
            ms: Date.now() - started,
          });
        }),
      );
      await sleep(200);
    }
    return answers;
  }
});

function countOf(answers: Array<{ status: number }>) {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
