/**
 * `npm run fuzz [-- --runs 10000 --seed 42]`
 *
 * The fuzz of tests/api/fuzz.test.ts at full size: `--runs` random requests
 * (10,000 by default) to every /v1 endpoint, against the production build
 * (rebuilt unless TEST_REUSE_BUILD=1) on a database of its own, with rate
 * limits raised so that requests reach validation. Prints the seed, then the
 * cases and time per endpoint; on a failure, fast-check's report (seed, path,
 * counterexample), and exits with 1.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDatabase } from "@/db/client";
import { createDomainContext } from "@/server/domain/context";
import { localFileStorage } from "@/server/storage/file-storage";
import { benchDatabase, startProductServer } from "../../../bench/support";
import { buildApp } from "../../support/global-setup";
import { fuzzCompany, fuzzEndpoint, fuzzEndpoints, newSeed } from "./api-fuzz";

const { values } = parseArgs({ options: { runs: { type: "string", default: "10000" }, seed: { type: "string" } } });
const runs = Number(values.runs);
const seed = values.seed === undefined ? newSeed() : Number(values.seed);
const log = (line: string) => process.stdout.write(`${line}\n`);

buildApp();
const database = await benchDatabase();
const handle = createDatabase(database.url);
const filesDir = mkdtempSync(path.join(tmpdir(), "interview-api-fuzz-files-"));
const ctx = createDomainContext(handle.db, { storage: localFileStorage(filesDir) });
const server = await startProductServer(database.url, {
  APP_SECRET: randomBytes(32).toString("hex"),
  NEXTAUTH_SECRET: randomBytes(32).toString("hex"),
  FILE_STORAGE_DIR: filesDir,
  RATE_LIMIT_PER_KEY: "1000000",
  RATE_LIMIT_PER_COMPANY: "1000000",
});

let failed = false;
try {
  const company = await fuzzCompany(ctx, server.baseUrl);
  const endpoints = await fuzzEndpoints(server.baseUrl);
  log(`seed ${seed}: ${runs.toLocaleString("en")} cases per endpoint, ${endpoints.length} endpoints (--seed ${seed} repeats this run)`);
  for (const endpoint of endpoints) {
    const started = performance.now();
    await fuzzEndpoint(server.baseUrl, endpoint, company, { runs, seed });
    log(`GET /v1${endpoint.template.padEnd(30)} ${runs.toLocaleString("en")} cases  ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
} catch (error) {
  failed = true;
  log(error instanceof Error ? `${error.message}\n${error.cause ?? ""}` : String(error));
} finally {
  await server.stop();
  await handle.close();
  await database.stop();
  rmSync(filesDir, { recursive: true, force: true });
}
log(failed ? `FAILED (seed ${seed})` : `passed (seed ${seed})`);
process.exitCode = failed ? 1 : 0;
