/**
 * /healthz and /readyz on both process kinds, the real web server (the
 * production build) and the real worker process, against a PostgreSQL of this file's
 * own: ready when the database answers with every migration applied; 503 with
 * a reason when a migration is missing or the database is down; ready again
 * once it is back. Neither probe is under /v1, and neither is redirected.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { webServerArguments } from "@/server/runtime/web/command";
import { apiCompany } from "../support/api-fixtures";
import type { TestDatabase } from "../support/database";
import { useOwnDatabase } from "../support/own-database";
import { callApi, useTestServer } from "../support/server";
import { useWorkerProcesses } from "../support/worker-process";

const own = useOwnDatabase("health");
const web = useTestServer({
  get url() {
    return own.url;
  },
  filesDir: mkdtempSync(path.join(tmpdir(), "interview-api-health-files-")),
} as TestDatabase);
const startWorker = useWorkerProcesses(() => ({ DATABASE_URL: own.url }));
const startDocumentedWorker = useWorkerProcesses(() => ({ DATABASE_URL: own.url }), "documented");
let samePort = "";
const startOnSamePort = useWorkerProcesses(() => ({ DATABASE_URL: own.url, WORKER_HTTP_PORT: samePort }));
const useSamePort = (port: string) => {
  samePort = port;
  return startOnSamePort;
};

/** Sends a request line as typed, which fetch would refuse or rewrite, and returns the status line of the answer. */
function rawStatusLine(base: string, requestLine: string) {
  const { hostname, port } = new URL(base);
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${requestLine}\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    socket.on("end", () => resolve(answer.split("\r\n")[0]!));
    socket.on("error", reject);
  });
}

async function probe(url: string) {
  const response = await fetch(url, { redirect: "manual" });
  return { status: response.status, contentType: response.headers.get("content-type"), body: await response.json().catch(() => null) };
}

const ready = { status: 200, body: { status: "ready" } };

describe("health and readiness", { timeout: 120_000 }, () => {
  it("/healthz answers 200 and /readyz says ready on the web server and the worker", async () => {
    // The worker as `npm run start:worker` starts it, through tsx's loader (the other tests run the bundled one).
    const worker = await startDocumentedWorker();
    for (const base of [web.baseUrl, worker.httpUrl]) {
      expect(await probe(`${base}/healthz`)).toEqual({ status: 200, contentType: "application/json", body: { status: "ok" } });
      expect(await probe(`${base}/readyz`)).toMatchObject(ready);
    }
    expect(worker.httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("the worker's listener answers request lines that are no valid URL, and keeps running", async () => {
    const worker = await startWorker();
    for (const target of ["http://a:99999/healthz", "http://%zz/", "//healthz", "*"]) {
      expect(await rawStatusLine(worker.httpUrl, `GET ${target} HTTP/1.1`)).toMatch(/^HTTP\/1\.1 (200|404)/);
    }
    expect(await probe(`${worker.httpUrl}/healthz`)).toMatchObject({ status: 200 });
  });

  it("a worker whose listener's port is taken does not start, and says which setting to change", async () => {
    const first = await startWorker();
    const port = new URL(first.httpUrl).port;
    const taken = useSamePort(port);
    await expect(taken()).rejects.toThrow(`The worker's HTTP listener cannot start on 127.0.0.1:${port}`);
    await expect(taken()).rejects.toThrow("set WORKER_HTTP_PORT to a free port, or 0 for any");
  });

  // Next.js logs uncaught exceptions and carries on: without a listener of our own, the process would stay up without listening.
  it("a web server whose port is taken exits with an error naming the port", async () => {
    const port = Number(new URL(web.baseUrl).port);
    const child = spawn(process.execPath, webServerArguments("start", port, "127.0.0.1"), {
      env: { ...process.env, DATABASE_URL: own.url, APP_URL: web.baseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`the web server was still running after 60 s on a taken port:\n${output}`));
      }, 60_000);
      child.once("exit", (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(code, output).toBe(1);
    expect(output).toContain('"message":"web server failed"');
    expect(output).toContain(`"port":${port}`);
    expect(output).toContain("EADDRINUSE");
  }, 70_000);

  it("the probes are not API endpoints", async () => {
    for (const endpoint of ["/v1/healthz", "/v1/readyz"]) {
      const answer = await probe(`${web.baseUrl}${endpoint}`);
      expect(answer).toMatchObject({ status: 404, body: { success: false, error: "not_found" } });
    }
  });

  it("/readyz is 503, naming the migration, while one is missing; ready again once it is applied", async () => {
    const worker = await startWorker();
    const sql = own.handle.sql;
    const [latest] = await sql<Array<{ id: number; hash: string; created_at: string }>>`
      select id, hash, created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1`;
    await sql`delete from drizzle.__drizzle_migrations where id = ${latest!.id}`;
    try {
      for (const base of [web.baseUrl, worker.httpUrl]) {
        const answer = await probe(`${base}/readyz`);
        expect(answer.status).toBe(503);
        expect(answer.body).toEqual({ status: "unavailable", reason: expect.stringMatching(/^database migrations not applied: 00\d\d_\w+$/) });
        expect(await probe(`${base}/healthz`)).toMatchObject({ status: 200 });
      }
    } finally {
      await sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${latest!.id}, ${latest!.hash}, ${latest!.created_at}::bigint)`;
    }
    for (const base of [web.baseUrl, worker.httpUrl]) expect(await probe(`${base}/readyz`)).toMatchObject(ready);
  });

  it("/readyz is 503 while the database is down, quickly and without details; /v1 answers 503 with Retry-After and logs the outage once; both recover", async () => {
    const worker = await startWorker();
    const { key } = await apiCompany(own.ctx, "Outage");
    expect((await callApi(web, "/v1/candidates", { key })).status).toBe(200);
    await own.restart("fast", async () => {
      const logBefore = web.logs().length;
      const answers = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const started = Date.now();
          return { ...(await callApi(web, "/v1/candidates", { key })), ms: Date.now() - started };
        }),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get("retry-after")).toBe("5");
        expect(answer.body).toMatchObject({ success: false, error: "external_service_error", message: expect.stringContaining("Retry after 5 seconds") });
        // The connection is waited for briefly (admission.ts), never past a client's patience.
        expect(answer.ms).toBeGreaterThanOrEqual(2_000);
        expect(answer.ms).toBeLessThan(5_000);
      }
      const outageLines = web
        .logs()
        .slice(logBefore)
        .split("\n")
        .filter((line) => line.includes("the database is unavailable"));
      expect(outageLines).toHaveLength(1);
      expect(outageLines[0]).toContain('"reason":"database unreachable: connection refused"');
      expect(web.logs().slice(logBefore)).not.toContain("API request failed");
      for (const base of [web.baseUrl, worker.httpUrl]) {
        const started = Date.now();
        // Which process stopped answering, and what the worker said, if it did.
        const answer = await probe(`${base}/readyz`).catch((error: unknown) => {
          throw new Error(`${base} did not answer (worker exit code ${worker.child.exitCode}); the worker's output:\n${worker.output().slice(-4000)}`, {
            cause: error,
          });
        });
        expect(answer.status).toBe(503);
        expect(answer.body.status).toBe("unavailable");
        // The worker's job pool stops too, but the database is the cause, and the reason names it.
        expect(answer.body.reason).toBe("database unreachable: connection refused");
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(await probe(`${base}/healthz`)).toMatchObject({ status: 200, body: { status: "ok" } });
      }
    });
    await expect.poll(async () => (await callApi(web, "/v1/candidates", { key })).status, { timeout: 30_000, interval: 500 }).toBe(200);
    for (const base of [web.baseUrl, worker.httpUrl]) {
      await expect.poll(() => probe(`${base}/readyz`), { timeout: 30_000, interval: 500 }).toMatchObject(ready);
    }
  });
});
