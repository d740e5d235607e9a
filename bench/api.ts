/**
 * `npm run bench:api [-- --candidates 1000000 --seconds 10]`
 *
 * Measures the full stack (the web server, tRPC, auth and rate limiting on)
 * against two bare node:http + postgres servers, in the same run on the same
 * machine, and prints the ratios and the targets:
 * - the baseline runs the same read queries, parses and stringifies;
 * - the physical limit answers with the very bytes the stack answered, stored
 *   in a table, through one indexed read (bench/physical-limit-server.ts).
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
  options: { candidates: { type: "string", default: "20000" }, seconds: { type: "string", default: "10" } },
});
const largeCount = Number(values.candidates);
const smallCount = 2_000;
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
const baseline = await startScript("bench/baseline-server.ts", [database.url, large.id]);
const physicalLimit = await startScript("bench/physical-limit-server.ts", [database.url]);

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
/** Each endpoint with its target at 32 connections, as a share of the physical limit's req/s. */
const endpoints = [
  ["GET /v1/candidates?limit=25", "/v1/candidates?limit=25", 0.4],
  ["GET /v1/candidates/{id}", `/v1/candidates/${candidateId}`, 0.3],
  ["GET /v1/events?limit=25", "/v1/events?limit=25", 0.4],
] as const;

// The physical limit's pages: what the stack answers each path with, byte for byte.
await handle.sql`create table bench_pages (path text primary key, body text not null)`;
for (const [, pathname] of endpoints) {
  const body = await (await fetch(`${product.baseUrl}${pathname}`, { headers: auth(large.key) })).text();
  await handle.sql`insert into bench_pages ${handle.sql({ path: pathname, body })}`;
}

const rows = [
  ["endpoint", "conns", "stack req/s", "base req/s", "limit req/s", "of base", "of limit", "stack p50", "base p50", "limit p50", "stack p99", "limit p99"],
];
const verdicts: string[] = [];
for (const [name, pathname, target] of endpoints) {
  for (const connections of [1, 32]) {
    const stack = await measure(`${product.baseUrl}${pathname}`, { connections, seconds, headers: auth(large.key) });
    const base = await measure(`${baseline.baseUrl}${pathname}`, { connections, seconds });
    const limit = await measure(`${physicalLimit.baseUrl}${pathname}`, { connections, seconds });
    const ofLimit = stack.requestsPerSecond / limit.requestsPerSecond;
    rows.push([
      name,
      String(connections),
      fixed(stack.requestsPerSecond, 0),
      fixed(base.requestsPerSecond, 0),
      fixed(limit.requestsPerSecond, 0),
      `${fixed((stack.requestsPerSecond / base.requestsPerSecond) * 100, 0)}%`,
      `${fixed(ofLimit * 100, 0)}%`,
      `${stack.p50}`,
      `${base.p50}`,
      `${limit.p50}`,
      `${stack.p99}`,
      `${limit.p99}`,
    ]);
    if (stack.errors > 0) verdicts.push(`FAIL ${name}: ${stack.errors} non-2xx or errors`);
    if (connections === 32)
      verdicts.push(
        `${ofLimit >= target ? "PASS" : "MISS"} ${name} at 32 connections: ${fixed(ofLimit * 100, 0)}% of the physical limit's req/s (target ≥ ${fixed(target * 100, 0)}%)`,
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
      `${counted.statements <= 2 ? "PASS" : "MISS"} ${name}: ${fixed(counted.statements, 2)} database statements per admitted request (target ≤ 2: admission, then the read)`,
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
await physicalLimit.stop();
await handle.close();
await database.stop();
