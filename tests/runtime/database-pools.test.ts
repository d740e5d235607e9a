/**
 * The pool sizes an operator sets (docs/operations.md, "Running at scale") bound the
 * connections each process opens: a web server under concurrent requests
 * opens no more than WEB_DATABASE_POOL_SIZE for them (where one left at the
 * default opens more), and graphile-worker gets WORKER_JOB_POOL_SIZE.
 * Every session the pools open has JIT off (db/client.ts).
 */
import { sql as fragment } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/db/client";
import { setCompanyRateLimits } from "@/server/domain/accounts";
import { parseEnv } from "@/server/env";
import { apiCompany } from "../support/api-fixtures";
import { useTestDatabase } from "../support/database";
import { callApi, type TestServer, useTestServer } from "../support/server";
import { useWorkerProcesses } from "../support/worker-process";

const test = useTestDatabase();
const small = useTestServer(test, { WEB_DATABASE_POOL_SIZE: "2" });
const standard = useTestServer(test);
const startWorker = useWorkerProcesses(() => ({ DATABASE_URL: test.url, WORKER_CONCURRENCY: "4", WORKER_JOB_POOL_SIZE: "2" }));

/** The product's connections to this database (its pools name themselves `interview-api`), the asking one left out. */
async function productConnections() {
  const [row] = await test.handle.sql<[{ count: number }]>`
    select count(*)::int as count from pg_stat_activity
    where datname = current_database() and application_name = 'interview-api' and pid <> pg_backend_pid()`;
  return row.count;
}

/** Connections a server opened for 80 requests at once. */
async function connectionsFor(server: TestServer, key: string) {
  const before = await productConnections();
  const responses = await Promise.all(Array.from({ length: 80 }, () => callApi(server, "/v1/candidates?limit=25", { key })));
  expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
  return (await productConnections()) - before;
}

describe("database sessions", () => {
  /** `setting` on each of a handle's two pools. */
  async function settingOnBothPools(url: string, setting: string) {
    const handle = createDatabase(url, { max: 1 });
    try {
      const [read] = await handle.sql<[{ value: string }]>`select current_setting(${setting}) as value`;
      const [written] = await handle.db.execute<{ value: string }>(fragment`select current_setting(${setting}) as value`);
      return [read.value, written!.value];
    } finally {
      await handle.close();
    }
  }

  it("start with JIT off, unless the operator's DATABASE_URL turns it back on", async () => {
    expect(await settingOnBothPools(test.url, "jit")).toEqual(["off", "off"]);
    expect(await settingOnBothPools(`${test.url}?jit=on`, "jit")).toEqual(["on", "on"]);
  });
});

describe("database pool sizes", { timeout: 120_000 }, () => {
  it("default to 10 per web pool and, for the worker, WORKER_CONCURRENCY + 4 per pool and 10 for graphile-worker", () => {
    const secrets = { NODE_ENV: "production" as const, APP_SECRET: "a".repeat(32), NEXTAUTH_SECRET: "b".repeat(32) };
    expect(parseEnv(secrets)).toMatchObject({ WEB_DATABASE_POOL_SIZE: 10, WORKER_DATABASE_POOL_SIZE: 14, WORKER_JOB_POOL_SIZE: 10 });
    expect(parseEnv({ ...secrets, WORKER_CONCURRENCY: "20" }).WORKER_DATABASE_POOL_SIZE).toBe(24);
    expect(parseEnv({ ...secrets, WORKER_CONCURRENCY: "20", WORKER_DATABASE_POOL_SIZE: "8" }).WORKER_DATABASE_POOL_SIZE).toBe(8);
    expect(() => parseEnv({ ...secrets, WEB_DATABASE_POOL_SIZE: "0" })).toThrow("WEB_DATABASE_POOL_SIZE");
    expect(() => parseEnv({ ...secrets, WORKER_DATABASE_POOL_SIZE: "many" })).toThrow("WORKER_DATABASE_POOL_SIZE");
  });

  it("bound the connections a web server opens under concurrent requests", async () => {
    const { companyId, key } = await apiCompany(test.ctx);
    await setCompanyRateLimits(test.ctx, companyId, { perKey: 1000, perCompany: 1000 });
    // Two pools of 2.
    const bounded = await connectionsFor(small, key);
    expect(bounded).toBeGreaterThanOrEqual(1);
    expect(bounded).toBeLessThanOrEqual(4);
    expect(await connectionsFor(standard, key)).toBeGreaterThan(4);
  });

  it("reach graphile-worker's pool in a worker process", async () => {
    const worker = await startWorker();
    // graphile-worker says so when its pool is smaller than the jobs it may run at once.
    expect(worker.output()).toContain("maxPoolSize (2) smaller than concurrency (4)");
  });
});
