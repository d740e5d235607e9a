import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

// The fault runs take minutes; `npm run test:faults` runs them (CI does too).
const faultRuns = process.env.TEST_SUITE === "faults";

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
