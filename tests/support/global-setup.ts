/**
 * One PostgreSQL server for the whole run: the embedded one in a temporary
 * folder, or the server at DATABASE_URL. A migrated template database is made
 * once; each test file clones it (see database.ts), which takes milliseconds.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "@/db/migrate";
import { startEmbeddedPostgres } from "@/server/runtime/embedded-postgres";
import { freePort } from "./ports";

declare module "vitest" {
  export interface ProvidedContext {
    serverUrl: string;
    templateDatabase: string;
    cliBundle: string;
  }
}

/**
 * API and browser tests (and `npm run fuzz`) run the production build. It is
 * built once per run; TEST_REUSE_BUILD=1 keeps an existing build while
 * iterating on tests only.
 */
export function buildApp() {
  if (process.env.TEST_REUSE_BUILD === "1" && existsSync(".next/BUILD_ID")) return;
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  execFileSync(process.execPath, [nextBin, "build"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
}

/**
 * The client package as plain Node runs it (its bin, the quick start's
 * script): compiled again on every run, since the repository's own code reads
 * its sources and dist/ would otherwise lag behind them. A few seconds.
 */
function buildClient() {
  execFileSync("npm", ["run", "build", "--workspace", "clients/typescript"], { stdio: ["ignore", "ignore", "inherit"] });
}

/**
 * The CLI (server/cli/main.ts) in one file, for the tests that run it some
 * forty times: Node loads it in about a third of the time it takes through
 * tsx's loader, module by module. Packages stay outside it, found in
 * node_modules from where the file is written (one file per run, removed at
 * its end). `import.meta.url` is the one module's that reads it,
 * db/migrate.ts (its migrations folder): another bundled module reading
 * `import.meta` would get a wrong answer, so the build refuses it.
 */
function bundleCli(): string {
  const outfile = path.resolve(`node_modules/.cache/interview-api-tests/cli-${process.pid}.mjs`);
  const migrate = path.resolve("db/migrate.ts");
  const { metafile } = buildSync({
    entryPoints: ["server/cli/main.ts"],
    outfile,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    logLevel: "warning",
    metafile: true,
    define: { "import.meta.url": JSON.stringify(pathToFileURL(migrate).href) },
  });
  const readers = Object.keys(metafile.inputs).filter((input) => path.resolve(input) !== migrate && readFileSync(input, "utf8").includes("import.meta"));
  if (readers.length > 0) throw new Error(`The CLI's bundle cannot give these modules their own import.meta: ${readers.join(", ")}`);
  return outfile;
}

export default async function setup(project: TestProject) {
  buildApp();
  buildClient();
  const cliBundle = bundleCli();
  project.provide("cliBundle", cliBundle);
  let folder: string | undefined;
  let serverUrl: string;
  let stopServer = async () => {};
  if (process.env.DATABASE_URL) {
    serverUrl = process.env.DATABASE_URL;
  } else {
    folder = mkdtempSync(path.join(tmpdir(), "interview-api-test-"));
    const running = await startEmbeddedPostgres({ directory: path.join(folder, "postgres"), port: await freePort(), database: "postgres" });
    serverUrl = running.url;
    stopServer = running.stop;
  }
  const templateDatabase = `test_template_${process.pid}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${templateDatabase}`);
  const templateUrl = new URL(serverUrl);
  templateUrl.pathname = `/${templateDatabase}`;
  await migrateDatabase(templateUrl.toString());

  project.provide("serverUrl", serverUrl);
  project.provide("templateDatabase", templateDatabase);

  return async () => {
    await admin.unsafe(`drop database if exists ${templateDatabase} with (force)`).catch(() => {});
    await admin.end();
    await stopServer();
    if (folder) rmSync(folder, { recursive: true, force: true });
    rmSync(cliBundle, { force: true });
  };
}
