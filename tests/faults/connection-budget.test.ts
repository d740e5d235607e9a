/**
 * A connection budget that runs out: a PostgreSQL of its own with
 * `max_connections` 30, and 2 web and 3 worker processes whose pools want
 * about four times that (docs/operations.md, "Connections"). Candidates are
 * written and delivered while 32 requests at a time reach the web processes;
 * then every slot left is taken by another client, as another application
 * or an operator's sessions would, and given back.
 *
 * - /v1 answers 200, or 503 `external_service_error` with `Retry-After` when
 *   no connection comes within its short wait: never a 500, never a hang;
 * - what cannot connect says so in a few lines that name the setting, not
 *   in one per failure; `/readyz` gives the same reason when it cannot connect;
 * - no process exits, and once the slots are back every request is answered
 *   200 and every event is delivered, in order.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql as fragment } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { setCompanyRateLimits } from "@/server/domain/accounts";
import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { apiCompany } from "../support/api-fixtures";
import type { TestDatabase } from "../support/database";
import { awaitAcceptances, eventsPerCandidate, historyOf, keepLedger, reckon, writeCandidates } from "../support/delivery-ledger";
import { useOwnDatabase } from "../support/own-database";
import { freePort } from "../support/ports";
import { callApi, useTestServer } from "../support/server";
import { allowReceiver } from "../support/webhook-fixtures";
import { useWorkerProcesses } from "../support/worker-process";

const maxConnections = 30;
const tooManyClients = "database refuses new connections: too many clients (raise max_connections, or lower the pools)";
const never = { chance: () => false, int: () => 0 };

describe("a connection budget that runs out", { timeout: 240_000 }, () => {
  const own = useOwnDatabase("connection_budget", { settings: { max_connections: String(maxConnections) } });
  const webOf = () =>
    useTestServer({
      get url() {
        return own.url;
      },
      filesDir: mkdtempSync(path.join(tmpdir(), "interview-api-budget-files-")),
    } as TestDatabase);
  const webs = [webOf(), webOf()];
  const startWorker = useWorkerProcesses(() => ({ DATABASE_URL: own.url, WEBHOOK_ALLOW_TARGETS: own.receiver.target, WEBHOOK_CA_FILE: own.caFile }));

  type Answer = { status: number; error: string | null; retryAfter: string | null; ms: number };

  /** 32 requests at once, spread over the web processes: each one's status, error code, Retry-After and time. */
  async function burst(key: string): Promise<Answer[]> {
    return Promise.all(
      Array.from({ length: 32 }, async (_, index) => {
        const web = webs[index % webs.length]!;
        const started = performance.now();
        const response = await callApi(web, "/v1/candidates?limit=10", { key });
        return {
          status: response.status,
          error: response.body?.error ?? null,
          retryAfter: response.headers.get("retry-after"),
          ms: performance.now() - started,
        };
      }),
    );
  }

  const countOf = (answers: Answer[]) => {
    const counts: Record<number, number> = {};
    for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  };

  /** /readyz's body once `until` holds for it (the listener may not be up yet); throws after 30 s. */
  async function waitForReadiness(url: string, until: (body: { reason?: string }) => boolean) {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
      const body = await fetch(url).then(
        (response) => response.json(),
        () => null,
      );
      if (body && until(body)) return body;
    }
    throw new Error(`${url} never answered as expected`);
  }

  it("makes a worker wait for a slot, answers 200 or 503, says why a few times, and recovers with nothing lost", async () => {
    // The test's own writer (the interview app, which is not under test) holds its connections from the start.
    await Promise.all(
      Array.from({ length: 4 }, () => Promise.all([own.handle.sql`select pg_sleep(0.1)`, own.handle.db.execute(fragment`select pg_sleep(0.1)`)])),
    );
    const company = await apiCompany(own.ctx, "Budget");
    await setCompanyRateLimits(own.ctx, company.companyId, { perKey: 10_000, perCompany: 10_000 });
    await createWebhook(own.ctx, company.companyId, { url: own.receiver.url("/budget") }, allowReceiver(own.receiver));
    const ledger = keepLedger(own.receiver, never);
    const earlier = (await historyOf(own.handle.sql, company.companyId)).length;

    // Every slot left taken by another client: the first worker cannot connect, and waits.
    const hogs = await takeEverySlotLeft();
    const firstPort = await freePort();
    const first = startWorker({ env: { WORKER_HTTP_PORT: String(firstPort) } });
    const waiting = await waitForReadiness(`http://127.0.0.1:${firstPort}/readyz`, (body) => body.reason?.includes("too many clients") ?? false);
    expect(waiting).toEqual({ status: "unavailable", reason: `the worker is starting: waiting for the database (${tooManyClients})` });
    const squeezed = await burst(company.key);
    await Promise.all(hogs.map((hog) => hog.end()));
    const workers = [await first, ...(await Promise.all([0, 1].map(() => startWorker())))];

    // The pools compete for the slots while candidates are written.
    const writing = writeCandidates(own.ctx, company.interview, { count: 12, writers: 2, pacing: never, tag: "budget" });
    const competing: Answer[] = [];
    for (let round = 0; round < 4; round++) competing.push(...(await burst(company.key)));
    await writing;

    // Slots free up: two workers stop.
    for (const worker of workers.slice(1)) worker.child.kill("SIGTERM");
    await Promise.all(workers.slice(1).map((worker) => new Promise((resolve) => worker.child.once("exit", resolve))));
    const recovered = await burst(company.key);

    const history = await historyOf(own.handle.sql, company.companyId);
    expect(history).toHaveLength(earlier + 12 * eventsPerCandidate);
    await awaitAcceptances(ledger, history.length, Date.now(), 60_000);
    console.log(`connection budget: ${hogs.length} slots were left for another client; /v1 answers:`, {
      competing: countOf(competing),
      squeezed: countOf(squeezed),
      recovered: countOf(recovered),
    });

    for (const answer of [...competing, ...squeezed]) {
      expect([200, 503]).toContain(answer.status);
      if (answer.status === 503) expect(answer).toMatchObject({ error: "external_service_error", retryAfter: "5" });
      expect(answer.ms).toBeLessThan(6_000);
    }
    expect(recovered.map((answer) => answer.status)).toEqual(recovered.map(() => 200));

    // Workers start after the webhook is made, so the company's earlier events are delivered too.
    const reckoning = reckon(history, ledger, ["/budget"]);
    expect(reckoning.lost).toBe(0);
    expect(reckoning.outOfOrder).toEqual([]);

    expect(workers[0]!.child.exitCode, workers[0]!.output().slice(-2000)).toBeNull();
    for (const output of [...webs.map((web) => web.logs()), ...workers.map((worker) => worker.output())]) {
      expect(output).not.toMatch(/"level":"error"|Your pool doesn't have error handlers/);
      const lines = output.split("\n").filter((line) => line.includes("too many clients"));
      expect(lines.length, lines.join("\n")).toBeLessThanOrEqual(4);
    }
  });

  async function takeEverySlotLeft() {
    const hogs: postgres.Sql[] = [];
    for (let index = 0; index < maxConnections; index++) {
      const hog = postgres(own.url, { max: 1, onnotice: () => {} });
      try {
        await hog`select 1`;
        hogs.push(hog);
      } catch {
        await hog.end();
        break;
      }
    }
    return hogs;
  }
});
