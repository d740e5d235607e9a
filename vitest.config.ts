import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { inListedOrder } from "./tests/support/listed-order";

// The fault runs take minutes; `npm run test:faults` runs them (CI does too).
const faultRuns = process.env.TEST_SUITE === "faults";
// `npm run screenshots` runs the generators in scripts/ (on the tests' harness), never the tests.
const screenshotRuns = process.env.TEST_SUITE === "screenshots";

/**
 * Two files at a time: most of a file's time is spent waiting (on its web
 * server, worker processes, Chromium, PostgreSQL, real deadlines), so two of
 * them share 2 cores well, where Vitest's default (cores - 1) runs one file
 * after another. Each file has its own database, servers and ports. Never
 * more than two: one file's web server, workers and own pool may open more
 * than 50 connections, and the embedded server allows 200. One at a time
 * still: the fault runs, whose kills and restarts are timed, and a server at
 * DATABASE_URL (a stock PostgreSQL's 100 connections).
 */
const filesAtOnce = faultRuns || process.env.DATABASE_URL ? 1 : 2;

/**
 * Files that time what they check to a second or less (a write delivered
 * within 1 s, a 1 s delivery deadline with 400 ms of slack, a render compared
 * with the stored one): they run after the others, so another file's Next
 * server or Chromium does not take the cores from under them. Beside a
 * browser file on a loaded 2-core machine, history-lock, delivery-deadline
 * and stored-json failed. Among themselves, the two that mostly wait
 * (delivery-deadline, 16 s, and stalled-handshake, two of the worker's 10 s
 * deadlines) start first, side by side; history-lock, which works, takes the
 * place delivery-deadline leaves, beside stalled-handshake; stored-json, which
 * works too, runs last and alone (`inListedOrder` keeps this order whatever
 * Vitest knows of the files). On a server at DATABASE_URL every file runs
 * alone, so there their place does not matter.
 */
const timedSideBySide = ["tests/webhooks/delivery-deadline.test.ts", "tests/webhooks/stalled-handshake.test.ts", "tests/domain/history-lock.test.ts"];
const timedAlone = ["tests/api/stored-json.test.ts"];
const timedFiles = [...timedSideBySide, ...timedAlone];

const resolve = {
  // The repository's own code and tests use the client's sources; plain Node outside it gets the compiled package (its exports).
  alias: { "@interview-api/client": path.resolve(import.meta.dirname, "clients/typescript/src/index.ts"), "@": path.resolve(import.meta.dirname) },
};

/** What every group of files shares; the global setup and the reporters are the run's, once. */
const fileSettings = {
  pool: "forks",
  testTimeout: 30_000,
  hookTimeout: 120_000,
  // Fixed secrets, shared by the test process and the servers it starts,
  // so tests can sign links and cursors the way the server does.
  env: {
    NODE_ENV: "test",
    APP_SECRET: "test-app-secret-0123456789abcdefghijklmnop",
    NEXTAUTH_SECRET: "test-nextauth-secret-0123456789abcdefghij",
  },
} as const;

export default defineConfig({
  resolve,
  test: {
    globalSetup: ["tests/support/global-setup.ts"],
    sequence: { sequencer: inListedOrder(timedFiles) },
    // The default report, then the ten slowest files.
    reporters: ["default", "./tests/support/slowest-files-reporter.ts"],
    projects: [
      {
        resolve,
        test: {
          ...fileSettings,
          name: "together",
          include: screenshotRuns ? ["scripts/*-screenshots.ts"] : faultRuns ? ["tests/faults/**/*.test.ts"] : ["tests/**/*.test.ts"],
          exclude: faultRuns ? configDefaults.exclude : [...configDefaults.exclude, "tests/faults/**", ...timedFiles],
          maxWorkers: filesAtOnce,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve,
        test: {
          ...fileSettings,
          name: "timed",
          include: faultRuns || screenshotRuns ? [] : timedSideBySide,
          maxWorkers: filesAtOnce,
          sequence: { groupOrder: 1 },
        },
      },
      {
        resolve,
        test: { ...fileSettings, name: "timed-alone", include: faultRuns || screenshotRuns ? [] : timedAlone, maxWorkers: 1, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
