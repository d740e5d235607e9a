/**
 * The real web server for a test file: the production build, served by
 * server/runtime/web/server.ts as `npm start` does (from the file it is
 * bundled into once per run, see global-setup.ts), on 127.0.0.1 and a free
 * port, against the file's own database. With TEST_THROUGH_PGBOUNCER=1 it
 * reaches that database through Debian's PgBouncer in transaction mode, as
 * docs/operations.md's recipe for web processes says (.ci/run runs the API's
 * conformance tests so).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { afterAll, beforeAll, inject } from "vitest";
import { webServerOptions } from "@/server/runtime/web/command";
import type { TestDatabase } from "./database";
import { type PgBouncer, startPgBouncer } from "./pgbouncer";
import { freePort } from "./ports";

export type TestServer = { baseUrl: string; logs: () => string };

/** `extraEnv` may be a function, read when the server starts (after earlier `beforeAll`s). */
export function useTestServer(test: TestDatabase, extraEnv: Record<string, string> | (() => Record<string, string>) = {}): TestServer {
  const server = { baseUrl: "", output: "", logs: () => server.output };
  let child: ChildProcess | undefined;
  let bouncer: PgBouncer | undefined;
  beforeAll(async () => {
    if (process.env.TEST_THROUGH_PGBOUNCER === "1") bouncer = await startPgBouncer(test.url);
    const port = await freePort();
    server.baseUrl = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [inject("bundles").webServer, ...webServerOptions("start", port, "127.0.0.1")], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        DATABASE_URL: bouncer?.url ?? test.url,
        APP_URL: server.baseUrl,
        FILE_STORAGE_DIR: test.filesDir,
        ...(typeof extraEnv === "function" ? extraEnv() : extraEnv),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (chunk: Buffer) => (server.output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (server.output += chunk.toString()));
    await waitUntilServing(`${server.baseUrl}/v1/openapi.json`, child, server);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await bouncer?.stop();
  });
  return server;
}

async function waitUntilServing(url: string, child: ChildProcess, server: { logs: () => string }) {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`The server exited:\n${server.logs()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The server did not start:\n${server.logs()}`);
}

export type ApiResponse = { status: number; headers: Headers; body: any };

/** Calls the API as an integrator would. */
export async function callApi(
  server: TestServer,
  path: string,
  options: { key?: string; method?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: options.method ?? "GET",
    headers: { ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}), ...options.headers },
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: leave the text for the assertion to show
  }
  return { status: response.status, headers: response.headers, body };
}

/**
 * Sends `text` as it is on a connection of its own (fetch refuses TRACE and
 * CONNECT, and checks what it sends) and reads the answer until the server
 * closes; `head` is the status line and headers as sent, `headers` the same lower-cased.
 */
export function rawExchange(server: TestServer, text: string): Promise<{ status: number; head: string; headers: string; body: string }> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString()));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = received.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), head, headers: head.toLowerCase(), body });
    });
  });
}
