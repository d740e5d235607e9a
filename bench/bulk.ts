/**
 * `npm run bench:bulk [-- --candidates 1000000]`
 *
 * `simulate --bulk` on its own embedded database: seconds, candidates per
 * second and rows written per table, against the target of one million
 * candidates in under three minutes (scaled to the number asked for).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { createDatabase } from "@/db/client";
import { simulate } from "@/server/demo/simulate";
import { createCompany } from "@/server/domain/accounts";
import { createDomainContext } from "@/server/domain/context";
import { workerTables } from "@/server/jobs/worker-tables";
import { localFileStorage } from "@/server/storage/file-storage";
import { benchDatabase, databaseCpuSeconds, fixed, table } from "./support";

const { values } = parseArgs({ options: { candidates: { type: "string", default: "1000000" }, seed: { type: "string", default: "1" } } });
const candidates = Number(values.candidates);
const log = (line: string) => process.stdout.write(`${line}\n`);
/** The target: 1,000,000 candidates in under 3 minutes. */
const targetPerSecond = 1_000_000 / 180;

const database = await benchDatabase();
const handle = createDatabase(database.url);
const filesDir = mkdtempSync(path.join(tmpdir(), "bench-files-"));
try {
  const ctx = createDomainContext(handle.db, { storage: localFileStorage(filesDir) });
  const { id: companyId } = await createCompany(ctx, { name: "Bulk" });

  log(`Simulating ${candidates.toLocaleString("en")} candidates in bulk…`);
  let lastPrinted = performance.now();
  const databaseCpuBefore = databaseCpuSeconds(database.directory);
  const nodeCpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await simulate(ctx, {
    companyId,
    candidates,
    seed: Number(values.seed),
    bulk: true,
    onProgress: (done) => {
      const now = performance.now();
      if (now - lastPrinted < 10_000 && done < candidates) return;
      lastPrinted = now;
      process.stderr.write(`  ${done.toLocaleString("en")} done, ${Math.round(done / ((now - started) / 1000)).toLocaleString("en")}/s\n`);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const rate = candidates / seconds;
  const nodeCpu = process.cpuUsage(nodeCpuBefore);
  const databaseCpu = databaseCpuSeconds(database.directory);

  const [rows] = await handle.db.execute<Record<string, number>>(sql`
    select
      (select count(*)::int from candidates) as candidates,
      (select count(*)::int from candidate_answers) as candidate_answers,
      (select count(*)::int from transcript_entries) as transcript_entries,
      (select count(*)::int from files) as files,
      (select count(*)::int from events) as events,
      (select count(*)::int from ${sql.raw(workerTables.jobsView)}) as jobs`);
  log("");
  log(table([["table", "rows"], ...Object.entries(rows!).map(([name, count]) => [name, count.toLocaleString("en")])]));
  log("");
  const target = candidates / targetPerSecond;
  if (result.mode !== "bulk") throw new Error(`simulate wrote in ${result.mode} mode`);
  log(
    `${result.candidates.toLocaleString("en")} candidates (${result.submitted.toLocaleString("en")} submitted, ${result.events.toLocaleString("en")} events)`,
  );
  log(`${fixed(seconds)} s, ${Math.round(rate).toLocaleString("en")} candidates/s`);
  // Where the time went: this process makes the rows, PostgreSQL stores them (2 cores between them, and whatever else runs).
  const cpu = [`this process ${fixed((nodeCpu.user + nodeCpu.system) / 1e6)} s`];
  if (databaseCpu !== undefined && databaseCpuBefore !== undefined) cpu.push(`PostgreSQL ${fixed(databaseCpu - databaseCpuBefore)} s`);
  log(`CPU: ${cpu.join(", ")}`);
  log(`target: under ${fixed(target)} s (1,000,000 in 180 s): ${seconds < target ? "PASS" : "MISS"}`);
} finally {
  await handle.close();
  await database.stop();
  rmSync(filesDir, { recursive: true, force: true });
}
