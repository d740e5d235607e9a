/**
 * `npm run bench:api [-- --candidates 1000000 --seconds 10]`
 *
 * Measures the full stack (Next.js, tRPC, auth and rate limiting on) against a
 * bare node:http + postgres baseline running the same keyset queries, in the
 * same run on the same machine, and prints the ratios and the targets.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDatabase } from "@/db/client";
import { simulate } from "@/server/demo/simulate";
import { createApiKey, createCompany, setCompanyRateLimits } from "@/server/domain/accounts";
import { createDomainContext } from "@/server/domain/context";
import { localFileStorage } from "@/server/storage/file-storage";
import { benchDatabase, ensureBuild, fixed, type Measurement, measure, startProductServer, startScript, statementsPerRequest, table } from "./support";

const { values } = parseArgs({
  options: { candidates: { type: "string", default: "100000" }, seconds: { type: "string", default: "10" } },
});
const largeCount = Number(values.candidates);
const smallCount = 10_000;
const seconds = Number(values.seconds);
const log = (line: string) => process.stdout.write(`${line}\n`);

const database = await benchDatabase();
const handle = createDatabase(database.url);
const filesDir = mkdtempSync(path.join(tmpdir(), "interview-api-bench-files-"));
const ctx = createDomainContext(handle.db, { storage: localFileStorage(filesDir) });

async function company(name: string, candidates: number) {
  const { id } = await createCompany(ctx, { name });
  const { key } = await createApiKey(ctx, { companyId: id, name: "bench" });
  // High enough never to refuse, so the check is paid on every request without limiting the load.
  await setCompanyRateLimits(ctx, id, { perKey: 1_000_000, perCompany: 1_000_000 });
  const started = performance.now();
  await simulate(ctx, { companyId: id, interviews: 4, candidates, bulk: true, seed: 42 });
  log(`seeded ${candidates.toLocaleString("en")} candidates in ${fixed((performance.now() - started) / 1000)} s`);
  return { id, key };
}

const large = await company("Large", largeCount);
const small = await company("Small", smallCount);
await handle.sql`analyze`;
const [{ id: candidateId }] = await handle.sql<[{ id: string }]>`
  select id from candidates where company_id = ${large.id} and submitted_at is not null order by id limit 1 offset 500`;

ensureBuild();
const secrets = { APP_SECRET: randomBytes(32).toString("hex"), NEXTAUTH_SECRET: randomBytes(32).toString("hex"), FILE_STORAGE_DIR: filesDir };
const product = await startProductServer(database.url, secrets);
const baseline = await startScript("tests/bench/baseline-server.ts", [database.url, large.id]);

const statementRows = [
  [
    "endpoint",
    "stack stmts/req",
    "stack db exec ms/req",
    "stack db plan ms/req",
    "base stmts/req",
    "base db exec ms/req",
    "base db plan ms/req",
    "stack statements (calls per request)",
  ],
];
const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
/** Each endpoint with its target at 32 connections, as a share of the baseline's req/s. */
const endpoints = [
  ["GET /v1/candidates?limit=25", "/v1/candidates?limit=25", 1],
  ["GET /v1/candidates/{id}", `/v1/candidates/${candidateId}`, 0.6],
  ["GET /v1/events?limit=25", "/v1/events?limit=25", 1],
] as const;

const rows = [["endpoint", "conns", "stack req/s", "base req/s", "ratio", "stack p50", "base p50", "Δp50 ms", "stack p99", "base p99"]];
const verdicts: string[] = [];
for (const [name, pathname, target] of endpoints) {
  for (const connections of [1, 32]) {
    const stack = await measure(`${product.baseUrl}${pathname}`, { connections, seconds, headers: auth(large.key) });
    const base = await measure(`${baseline.baseUrl}${pathname}`, { connections, seconds });
    const ratio = stack.requestsPerSecond / base.requestsPerSecond;
    rows.push([
      name,
      String(connections),
      fixed(stack.requestsPerSecond, 0),
      fixed(base.requestsPerSecond, 0),
      `${fixed(ratio * 100, 0)}%`,
      `${stack.p50}`,
      `${base.p50}`,
      fixed(stack.p50 - base.p50),
      `${stack.p99}`,
      `${base.p99}`,
    ]);
    if (stack.errors > 0) verdicts.push(`FAIL ${name}: ${stack.errors} non-2xx or errors`);
    if (connections === 32)
      verdicts.push(
        `${ratio >= target ? "PASS" : "MISS"} ${name} at 32 connections: ${fixed(ratio * 100, 0)}% of the baseline's req/s (target ≥ ${fixed(target * 100, 0)}%)`,
      );
    if (connections === 1)
      verdicts.push(
        `${stack.p50 - base.p50 <= 1 ? "PASS" : "MISS"} ${name} at 1 connection: p50 ${fixed(stack.p50 - base.p50)} ms over the baseline (target ≤ 1 ms)`,
      );
  }
  // Round trips: what one admitted request costs the database, counted by the database itself.
  const counted = await statementsPerRequest(handle.sql, `${product.baseUrl}${pathname}`, { headers: auth(large.key) });
  const based = await statementsPerRequest(handle.sql, `${baseline.baseUrl}${pathname}`, {});
  if (!counted || !based) verdicts.push(`MISS ${name}: statements per request not measured (pg_stat_statements is not loaded)`);
  else {
    statementRows.push([
      name,
      fixed(counted.statements, 2),
      fixed(counted.databaseMs, 2),
      fixed(counted.planningMs, 2),
      fixed(based.statements, 2),
      fixed(based.databaseMs, 2),
      fixed(based.planningMs, 2),
      counted.top,
    ]);
    verdicts.push(
      `${counted.statements === 1 ? "PASS" : "MISS"} ${name}: ${fixed(counted.statements, 2)} database statements per admitted request (target exactly 1)`,
    );
  }
}
log(`\n${table(rows)}\n`);
log(`${table(statementRows)}\n`);

/** Follows next_cursor to page `page` and returns the path of that page. */
async function pathOfPage(list: "candidates" | "events", page: number) {
  let cursor: string | null = null;
  for (let index = 1; index < page; index++) {
    const query =
      list === "candidates"
        ? `/v1/candidates?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`
        : `/v1/events?limit=25${cursor ? `&after=${encodeURIComponent(cursor)}` : ""}`;
    const response = await fetch(`${product.baseUrl}${query}`, { headers: auth(large.key) });
    const body = (await response.json()) as { data: { next_cursor: string | null } };
    cursor = body.data.next_cursor;
  }
  const parameter = list === "candidates" ? "cursor" : "after";
  return `/v1/${list}?limit=25${cursor ? `&${parameter}=${encodeURIComponent(cursor)}` : ""}`;
}

const compare = (label: string, a: Measurement, b: Measurement, aName: string, bName: string) => {
  const p50 = b.p50 / a.p50 - 1;
  const p99 = b.p99 / a.p99 - 1;
  const within = Math.abs(p50) <= 0.2 && Math.abs(p99) <= 0.2;
  verdicts.push(
    `${within ? "PASS" : "MISS"} ${label}: p50 ${a.p50}→${b.p50} ms (${fixed(p50 * 100, 0)}%), p99 ${a.p99}→${b.p99} ms (${fixed(p99 * 100, 0)}%) from ${aName} to ${bName} (target within 20%)`,
  );
};

const one = { connections: 1, seconds };
for (const list of ["candidates", "events"] as const) {
  const first = await measure(`${product.baseUrl}/v1/${list}?limit=25`, { ...one, headers: auth(large.key) });
  const deep = await measure(`${product.baseUrl}${await pathOfPage(list, 400)}`, { ...one, headers: auth(large.key) });
  compare(`GET /v1/${list} page 1 vs page 400`, first, deep, "page 1", "page 400");
}
const smallList = await measure(`${product.baseUrl}/v1/candidates?limit=25`, { ...one, headers: auth(small.key) });
const largeList = await measure(`${product.baseUrl}/v1/candidates?limit=25`, { ...one, headers: auth(large.key) });
compare("GET /v1/candidates by company size", smallList, largeList, `${smallCount.toLocaleString("en")}`, `${largeCount.toLocaleString("en")} candidates`);

log(verdicts.join("\n"));
await product.stop();
await baseline.stop();
await handle.close();
await database.stop();
