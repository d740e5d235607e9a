/**
 * `npm run cli -- simulate --live` across a PostgreSQL restart (its
 * immediate shutdown, every connection cut): the writer says it waits for
 * the database, goes on writing once it is back, and stops only when told.
 * It exited before, on a lost connection or postgres.js's TypeError.
 */
import { spawn } from "node:child_process";
import { expect, inject, it } from "vitest";
import { makeCompany } from "../support/fixtures";
import { useOwnDatabase } from "../support/own-database";

const own = useOwnDatabase("simulate_live");

const stepLine = /^\d\d:\d\d:\d\d {2}(?!waiting for the database|the database went away)/;

it("goes on writing after the database restarts, and stops when told", { timeout: 180_000 }, async () => {
  const companyId = await makeCompany(own.ctx, "Live Ltd");
  const child = spawn(process.execPath, [inject("bundles").cli, "simulate", "--company", companyId, "--live", "--seed", "7"], {
    env: { ...process.env, DATABASE_URL: own.url },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const steps = () => stderr.split("\n").filter((line) => stepLine.test(line)).length;
  const waitFor = async (what: string, until: () => boolean) => {
    for (const deadline = Date.now() + 90_000; !until(); await new Promise((resolve) => setTimeout(resolve, 200))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${what}; the writer said:\n${stderr}`);
    }
  };
  try {
    await waitFor("no step was written", () => steps() >= 2);
    await own.restart("immediate", () => new Promise((resolve) => setTimeout(resolve, 6_000)));
    const before = steps();
    await waitFor("nothing was written after the restart", () => steps() >= before + 2);
    expect(child.exitCode).toBeNull();
    expect(stderr).not.toMatch(/TypeError|"level":"error"/);
  } finally {
    child.kill("SIGINT");
  }
  expect(await exited).toBe(0);
});
