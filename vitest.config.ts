import { availableParallelism } from "node:os";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

// The fault runs take minutes; `npm run test:faults` runs them (CI does too).
const faultRuns = process.env.TEST_SUITE === "faults";

/**
 * Two files at a time at least: most of a file's time is spent waiting (on
 * its web server, worker processes, Chromium, PostgreSQL, real deadlines), so
 * two of them share 2 cores well, where Vitest's default (cores - 1) runs one
 * file after another. Each file has its own database, servers and ports. One
 * at a time still: the fault runs, whose kills and restarts are timed, and a
 * server at DATABASE_URL (a stock PostgreSQL's 100 connections), since one
 * file's web server, workers and own pool may open more than 50.
 */
const filesAtOnce = faultRuns || process.env.DATABASE_URL ? 1 : Math.max(2, availableParallelism() - 1);

export default defineConfig({
  // The repository's own code and tests use the client's sources; plain Node outside it gets the compiled package (its exports).
  resolve: {
    alias: { "@interview-api/client": path.resolve(import.meta.dirname, "clients/typescript/src/index.ts"), "@": path.resolve(import.meta.dirname) },
  },
  test: {
    include: faultRuns ? ["tests/faults/**/*.test.ts"] : ["tests/**/*.test.ts"],
    exclude: faultRuns ? configDefaults.exclude : [...configDefaults.exclude, "tests/faults/**"],
    globalSetup: ["tests/support/global-setup.ts"],
    // The default report, then the ten slowest files.
    reporters: ["default", "./tests/support/slowest-files-reporter.ts"],
    pool: "forks",
    maxWorkers: filesAtOnce,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Fixed secrets, shared by the test process and the servers it starts,
    // so tests can sign links and cursors the way the server does.
    env: {
      NODE_ENV: "test",
      APP_SECRET: "test-app-secret-0123456789abcdefghijklmnop",
      NEXTAUTH_SECRET: "test-nextauth-secret-0123456789abcdefghij",
    },
  },
});
