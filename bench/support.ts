/** What the benchmarks share: a database, servers on loopback, and load measured with autocannon. */

import { type ChildProcess, execFileSync, fork, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import postgres from "postgres";
import { migrateDatabase } from "@/db/migrate";
import { startEmbeddedPostgres } from "@/server/runtime/embedded-postgres";
import { webServerArguments } from "@/server/runtime/web/command";
import { freePort } from "../tests/support/ports";

export type BenchDatabase = { url: string; directory: string | undefined; stop: () => Promise<void> };

/**
 * The bench's database: on the server at DATABASE_URL (a stock one, say), a
 * database of its own, made and migrated for the run and dropped after it;
 * otherwise an embedded server of its own. Statements are counted where the
 * server loads `pg_stat_statements` (`shared_preload_libraries`).
 */
export async function benchDatabase(): Promise<BenchDatabase> {
  if (process.env.DATABASE_URL) return benchDatabaseOn(process.env.DATABASE_URL);
  const server = await embeddedBenchServer();
  await migrateDatabase(server.url);
  return server;
}

/**
 * An embedded server of the bench's own, its database named "bench", in
 * `folder` when given (kept after the run, with what was stored there, for
 * the next run), otherwise in a temporary folder removed at the end.
 */
export async function embeddedBenchServer(folder?: string): Promise<BenchDatabase> {
  const parent = folder ?? mkdtempSync(path.join(tmpdir(), "interview-api-bench-"));
  const running = await startEmbeddedPostgres({
    directory: path.join(parent, "postgres"),
    port: await freePort(),
    database: "bench",
    // Counts every top-level statement, so the bench can report statements per request.
    settings: { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track_planning": "on" },
  });
  return {
    url: running.url,
    /** The embedded server's data folder. */
    directory: path.join(parent, "postgres"),
    stop: async () => {
      await running.stop();
      if (!folder) rmSync(parent, { recursive: true, force: true });
    },
  };
}

/**
 * A database of the bench's own on the server at `serverUrl`, dropped by
 * `stop`: migrated (`through` a migration, or all), or a copy of `template`
 * as it is.
 */
export async function benchDatabaseOn(serverUrl: string, options: { through?: string; template?: string } = {}) {
  const name = `bench_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  // FILE_COPY copies the template's files at disk speed, where the default strategy writes every page to the WAL too.
  await admin.unsafe(options.template ? `create database ${name} template ${options.template} strategy file_copy` : `create database ${name}`);
  const url = databaseUrl(serverUrl, name);
  if (!options.template) await migrateDatabase(url, { through: options.through });
  return {
    url,
    name,
    directory: undefined,
    stop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** The address of database `name` on the server at `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * CPU seconds used so far by an embedded server's processes that are still
 * running (postmaster, backends, WAL writer, checkpointer…), read from /proc:
 * Linux only, undefined elsewhere or without a data folder.
 */
export function databaseCpuSeconds(directory: string | undefined): number | undefined {
  if (!directory || !existsSync("/proc/self/stat")) return undefined;
  const postmaster = Number(readFileSync(path.join(directory, "postmaster.pid"), "utf8").split("\n")[0]);
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command name (which may hold spaces): state ppid … utime(14) stime(15).
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      if (Number(entry) === postmaster || Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / 100;
}

const nextBin = () => createRequire(import.meta.url).resolve("next/dist/bin/next");

export function ensureBuild() {
  if (existsSync(".next/BUILD_ID") && process.env.BENCH_REBUILD !== "1") return;
  execFileSync(process.execPath, [nextBin(), "build"], { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
}

async function waitFor(url: string, child: ChildProcess) {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url}: the server did not start`);
}

export type Server = { baseUrl: string; stop: () => Promise<void> };

const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});
/** Should the bench fail, the processes it started must not outlive it. */
export function killOnExit(child: ChildProcess) {
  children.add(child);
  return child;
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
}

export async function startProductServer(databaseUrl: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = killOnExit(
    spawn(process.execPath, webServerArguments("start", port, "127.0.0.1"), {
      env: { ...process.env, NODE_ENV: "production", DATABASE_URL: databaseUrl, APP_URL: baseUrl, ...env },
      stdio: ["ignore", "ignore", "inherit"],
    }),
  );
  await waitFor(`${baseUrl}/v1/openapi.json`, child);
  return { baseUrl, stop: stopper(child) };
}

export async function startScript(script: string, args: string[]): Promise<Server> {
  const port = await freePort();
  const child = killOnExit(fork(script, [String(port), ...args], { execArgv: ["--import", "tsx"], stdio: ["ignore", "ignore", "inherit", "ipc"] }));
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { baseUrl: `http://127.0.0.1:${port}`, stop: stopper(child) };
}

export type Measurement = { requestsPerSecond: number; p50: number; p99: number; errors: number; requests: number };

/**
 * Load on one server, or spread over several: one autocannon per address,
 * all at once, sharing `connections`. `measured` runs after the warm-up,
 * right before the load that counts (to reset counters). With several
 * addresses the rates and counts add up and the latencies are the slowest server's.
 */
export async function measure(
  url: string | string[],
  options: { connections: number; seconds: number; headers?: Record<string, string>; measured?: () => Promise<unknown> },
): Promise<Measurement> {
  const urls = typeof url === "string" ? [url] : url;
  const load = (duration: number) =>
    Promise.all(
      urls.map((target, index) =>
        autocannon({
          url: target,
          connections: Math.floor(options.connections / urls.length) + (index < options.connections % urls.length ? 1 : 0),
          duration,
          headers: options.headers,
        }),
      ),
    );
  // A short warm-up so JIT and connection pools are ready.
  await load(1);
  await options.measured?.();
  const results = await load(options.seconds);
  return {
    requestsPerSecond: results.reduce((sum, result) => sum + result.requests.average, 0),
    p50: Math.max(...results.map((result) => result.latency.p50)),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    errors: results.reduce((sum, result) => sum + result.errors + result.non2xx, 0),
    requests: results.reduce((sum, result) => sum + result.requests.total, 0),
  };
}

export const fixed = (value: number, digits = 1) => value.toFixed(digits);

export function table(rows: string[][]) {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ")).join("\n");
}

/** Connections to this database (client backends), the asking one included. */
export async function clientConnections(sql: postgres.Sql) {
  const [row] = await sql<[{ count: number }]>`
    select count(*)::int as count from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`;
  return row.count;
}

/** Waits (up to 10 s) until the backends of stopped processes have gone, down to `count` connections. */
export async function connectionsBackTo(sql: postgres.Sql, count: number) {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline && (await clientConnections(sql)) > count; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts pg_stat_statements' counts afresh; false when the extension is missing (a DATABASE_URL server without it in `shared_preload_libraries`). */
export async function resetStatements(sql: postgres.Sql) {
  try {
    await sql`create extension if not exists pg_stat_statements`;
    await sql`select pg_stat_statements_reset()`;
    return true;
  } catch {
    return false;
  }
}

/** This database's top-level statements since `resetStatements`, the bench's own (matching `benchQueries`, a LIKE pattern) left out. */
export async function statementsSinceReset(sql: postgres.Sql, benchQueries = "") {
  const [row] = await sql<[{ calls: string | null }]>`
    select sum(calls)::text as calls from pg_stat_statements
    where toplevel and dbid = (select oid from pg_database where datname = current_database())
      and query not like '%pg_stat_statements%' and query not like ${benchQueries}`;
  return Number(row.calls ?? 0);
}

/** The statements that took the most database time since the reset, with their share of it. */
export async function heaviestStatements(sql: postgres.Sql, count: number) {
  const rows = await sql<Array<{ query: string; calls: string; ms: number; share: number }>>`
    select query, calls::text, total_exec_time as ms, total_exec_time / nullif(sum(total_exec_time) over (), 0) as share
    from pg_stat_statements
    where toplevel and dbid = (select oid from pg_database where datname = current_database()) and query not like '%pg_stat_statements%'
    order by total_exec_time desc limit ${count}`;
  return rows.map(
    (row) =>
      `${fixed(row.share * 100, 0)}% (${row.calls} calls, ${fixed(row.ms / Number(row.calls), 2)} ms each) ${row.query.replace(/\s+/g, " ").slice(0, 90)}`,
  );
}

/**
 * Top-level statements the database ran per request, and their execution time,
 * from pg_stat_statements (statements inside SQL functions are not counted:
 * `pg_stat_statements.track` is `top`). Null when the extension is missing.
 */
export async function statementsPerRequest(
  sql: postgres.Sql,
  url: string,
  options: { headers?: Record<string, string>; requests?: number },
): Promise<{ statements: number; databaseMs: number; planningMs: number; top: string } | null> {
  // Requests of an earlier load may still be finishing; they must not count here.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  if (!(await resetStatements(sql))) return null;
  const requests = options.requests ?? 100;
  for (let index = 0; index < requests; index++) {
    const response = await fetch(url, { headers: options.headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
  }
  const rows = await sql<Array<{ query: string; calls: string; ms: number; planning: number }>>`
    select query, calls::text, total_exec_time as ms, total_plan_time as planning from pg_stat_statements
    where toplevel and dbid = (select oid from pg_database where datname = current_database())
      and query not like '%pg_stat_statements%'
    order by calls desc`;
  const calls = rows.reduce((sum, row) => sum + Number(row.calls), 0);
  const ms = rows.reduce((sum, row) => sum + row.ms, 0);
  const planning = rows.reduce((sum, row) => sum + row.planning, 0);
  const top = rows
    .slice(0, 3)
    .map((row) => `${fixed(Number(row.calls) / requests, 2)}× ${row.query.replace(/\s+/g, " ").slice(0, 60)}`)
    .join(" | ");
  return { statements: calls / requests, databaseMs: ms / requests, planningMs: planning / requests, top };
}
