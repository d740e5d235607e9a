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
import { build, type Loader, type Plugin } from "esbuild";
import postgres from "postgres";
import type { ProvidedContext } from "vitest";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "@/db/migrate";
import { startEmbeddedPostgres } from "@/server/runtime/embedded-postgres";
import { freePort } from "./ports";

declare module "vitest" {
  export interface ProvidedContext {
    serverUrl: string;
    templateDatabase: string;
    cloneStrategy: "wal_log" | "file_copy";
    bundles: TestBundles;
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
 * The processes the tests start most often, each in one file built once per
 * run: the CLI (server/cli/main.ts, some forty commands), the worker
 * (server/runtime/main.ts) and the web server (server/runtime/web/server.ts,
 * some thirty). Node loads such a file in about a third of the CPU time it
 * takes through tsx's loader, which sees every module, Next.js's included:
 * a web server is serving in 1 s instead of 3. Packages stay outside it,
 * found in node_modules from where the file is written. Each module keeps its
 * own `import.meta.url` (db/migrate.ts finds its migrations folder by it).
 * The documented commands (`npm run cli --`, `node --import tsx server/runtime/main.ts`,
 * `npm start`'s web server) still run in the tests that say so.
 */
async function bundleForTests(entryPoint: string, name: string): Promise<string> {
  const outfile = path.resolve(`node_modules/.cache/interview-api-tests/${name}-${process.pid}.mjs`);
  await build({
    entryPoints: [entryPoint],
    outfile,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    logLevel: "warning",
    plugins: [ownImportMeta],
  });
  return outfile;
}

/** How esbuild reads each kind of script of ours that is not plain JavaScript. */
const loaders: Record<string, Loader> = { ".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".jsx": "jsx" };

/** Gives each bundled module of ours its own `import.meta.url`; any other use of `import.meta` is refused. */
const ownImportMeta: Plugin = {
  name: "own-import-meta",
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const contents = source.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href));
      if (contents.includes("import.meta")) return { errors: [{ text: `${args.path}: only import.meta.url can be bundled` }] };
      return { contents, loader: loaders[path.extname(args.path)] ?? "js" };
    });
  },
};

/**
 * The run's embedded server holds nothing worth keeping past a crash of this
 * machine, so it does not wait for the disk: no fsync, commits that return
 * before their WAL is written, no full pages in the WAL after a checkpoint.
 * Alone, the migrations take 1.9 s instead of 3.0 and a clone of the template
 * 193 ms instead of 264; tests wait less on their commits. Each file's clone
 * copies the template's files (`file_copy`) rather than writing its 18 MB
 * again as WAL: the two checkpoints that costs are cheap without fsync
 * (alone 110 against 193 ms; while the suite runs 1.20 against 1.42 s).
 * A stock server at DATABASE_URL keeps its settings and PostgreSQL's default
 * clone; the servers the fault runs restart (own-database.ts) keep theirs.
 */
const throwawayServer = {
  settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
  cloneStrategy: "file_copy",
} as const;

export type TestBundles = { cli: string; main: string; webServer: string };

export default async function setup(project: TestProject) {
  buildApp();
  buildClient();
  const [cli, main, webServer] = await Promise.all([
    bundleForTests("server/cli/main.ts", "cli"),
    bundleForTests("server/runtime/main.ts", "main"),
    bundleForTests("server/runtime/web/server.ts", "web-server"),
  ]);
  const bundles: TestBundles = { cli, main, webServer };
  project.provide("bundles", bundles);
  let folder: string | undefined;
  let serverUrl: string;
  let stopServer = async () => {};
  let cloneStrategy: ProvidedContext["cloneStrategy"] = "wal_log";
  if (process.env.DATABASE_URL) {
    serverUrl = process.env.DATABASE_URL;
  } else {
    cloneStrategy = throwawayServer.cloneStrategy;
    folder = mkdtempSync(path.join(tmpdir(), "interview-api-test-"));
    const running = await startEmbeddedPostgres({
      directory: path.join(folder, "postgres"),
      port: await freePort(),
      database: "postgres",
      settings: throwawayServer.settings,
    });
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
  project.provide("cloneStrategy", cloneStrategy);

  return async () => {
    await admin.unsafe(`drop database if exists ${templateDatabase} with (force)`).catch(() => {});
    await admin.end();
    await stopServer();
    if (folder) rmSync(folder, { recursive: true, force: true });
    for (const bundle of Object.values(bundles)) rmSync(bundle, { force: true });
  };
}
