import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
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
