/**
 * The worker's operator listener when port 3001 is taken, a common port for a
 * second development server (issue 27): `npm run dev` takes any free port and
 * says which; a production process, or a port that was set, stops with the
 * setting to change.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/database";
import { freePort } from "../support/ports";

const test = useTestDatabase();
const defaultPort = 3001;
let occupier: Server | null = null;
const started: ChildProcess[] = [];

beforeAll(async () => {
  // Taken by this test, or already by something else: either way the worker cannot have it.
  occupier = await new Promise<Server | null>((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(null));
    server.listen(defaultPort, "127.0.0.1", () => resolve(server));
  });
});
afterAll(() => occupier?.close());
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** `main.ts <mode>` without WORKER_HTTP_PORT unless given; resolves with its output once `until` shows or it exits. */
async function run(mode: "dev" | "worker", until: RegExp, extraEnv: Record<string, string> = {}) {
  const { WORKER_HTTP_PORT: _unset, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "server/runtime/main.ts", mode], {
    env: {
      ...inherited,
      NODE_ENV: mode === "dev" ? "development" : "production",
      DATABASE_URL: test.url,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "interview-api-dev-port-")),
      FILE_STORAGE_DIR: test.filesDir,
      PORT: String(await freePort()),
      DEMO_RECEIVER_PORT: String(await freePort()),
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!until.test(output) && child.exitCode === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return { child, output };
}

describe("the worker's listener on a taken port 3001", { timeout: 90_000 }, () => {
  it("npm run dev takes a free port, says so, and answers there", async () => {
    const { child, output } = await run("dev", /worker endpoints listening/);
    expect(child.exitCode, output).toBeNull();
    expect(output).toContain(`Port ${defaultPort} is taken, so the worker's /healthz, /readyz and /metrics are on http://127.0.0.1:`);
    const url = /"message":"worker endpoints listening","url":"([^"]+)"/.exec(output)![1]!;
    expect(new URL(url).port).not.toBe(String(defaultPort));
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it("a production worker stops and names the setting", async () => {
    const { child, output } = await run("worker", /WORKER_HTTP_PORT/);
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
    expect(child.exitCode).toBe(1);
    expect(output).toContain(`The worker's HTTP listener cannot start on 127.0.0.1:${defaultPort}`);
  });

  it("npm run dev with WORKER_HTTP_PORT set to the taken port stops: a chosen port is kept to", async () => {
    const { child, output } = await run("dev", /WORKER_HTTP_PORT/, { WORKER_HTTP_PORT: String(defaultPort) });
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
    expect(child.exitCode).toBe(1);
    expect(output).toContain("set WORKER_HTTP_PORT to a free port, or 0 for any");
  });
});
