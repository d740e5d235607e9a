/**
 * `npm run dev` as the quick start runs it: no DATABASE_URL, no APP_SECRET.
 * The embedded database's development secret (DATA_DIR/dev-secrets.json)
 * must reach the web process too, which is given the embedded database's
 * address: without it, every cursor, download link and webhook secret
 * failed there, since a process given DATABASE_URL has no development
 * secret (decision 0097).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePort } from "../support/ports";

const dataDir = mkdtempSync(path.join(tmpdir(), "interview-api-dev-secrets-"));
let child: ChildProcess | undefined;
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGINT");
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

it("serves /v1 pages with their cursors on the embedded database without APP_SECRET", { timeout: 180_000 }, async () => {
  const { APP_SECRET: _app, NEXTAUTH_SECRET: _auth, DATABASE_URL: _url, WORKER_HTTP_PORT: _port, ...inherited } = process.env;
  const port = await freePort();
  child = spawn(process.execPath, ["--import", "tsx", "server/runtime/main.ts", "dev"], {
    env: {
      ...inherited,
      NODE_ENV: "development",
      DATA_DIR: dataDir,
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      PORT: String(port),
      HOST: "127.0.0.1",
      DEMO_RECEIVER_PORT: String(await freePort()),
      WORKER_HTTP_PORT: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 150_000;
  let answer: Response | null = null;
  while (Date.now() < deadline && child.exitCode === null) {
    const key = /Demo API key: +(\S+)/.exec(output)?.[1];
    if (key) answer = await fetch(`http://127.0.0.1:${port}/v1/events?limit=1`, { headers: { Authorization: `Bearer ${key}` } }).catch(() => null);
    if (answer) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(answer, output.slice(-3000)).not.toBeNull();
  const body = (await answer!.json()) as { data?: { next_cursor?: string } };
  expect(answer!.status, JSON.stringify(body)).toBe(200);
  expect(body.data?.next_cursor).toEqual(expect.any(String));
});
