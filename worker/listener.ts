/**
 * The worker's own small HTTP listener, for operators only: /healthz,
 * /readyz and /metrics (server/observability/endpoints.ts), on
 * WORKER_HTTP_HOST:WORKER_HTTP_PORT (127.0.0.1:3001 unless set). It starts
 * before the database is prepared, so /healthz answers from the first moment
 * and /readyz says "starting" until the worker runs, with why while it waits
 * for the database.
 */
import { createServer, type Server } from "node:http";
import type { Env } from "@/server/env";
import type { Answer } from "@/server/http/answer";
import { log } from "@/server/log";
import { healthAnswer, metricsAnswer, readinessAnswer } from "@/server/observability/endpoints";
import type { Readiness } from "@/server/observability/readiness";
import type { WorkerHandle } from "./run";

export type WorkerHttp = {
  /** The address it listens on (the port chosen when WORKER_HTTP_PORT is 0). */
  url: string;
  /** Hands the running worker to the endpoints (until then: not ready, no database gauges). */
  serve: (worker: WorkerHandle) => void;
  /** Until it serves: /readyz gives why the database cannot be prepared yet. */
  waitingForDatabase: (reason: string) => void;
  close: () => Promise<void>;
};

const notFound = (): Answer => ({
  status: 404,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ error: "not_found", message: "This listener serves /healthz, /readyz and /metrics only." }),
});

export async function startWorkerHttp(host: string, port: number): Promise<WorkerHttp> {
  let worker: WorkerHandle | null = null;
  let starting: Readiness = { ready: false, reason: "the worker is starting" };
  const answer = (method: string, path: string, authorization: string | null): Answer | Promise<Answer> => {
    if (method !== "GET" && method !== "HEAD") return { status: 405, headers: { Allow: "GET, HEAD" }, body: "" };
    if (path === "/healthz") return healthAnswer();
    if (path === "/readyz") return readinessAnswer(worker ? worker.readiness() : Promise.resolve(starting));
    if (path === "/metrics") return metricsAnswer(authorization, worker?.databaseMetrics);
    return notFound();
  };
  const server: Server = createServer((request, response) => {
    // The path as sent, without the query; never parsed as a URL, so no request line can make this callback throw.
    const path = (request.url ?? "/").split("?")[0]!;
    Promise.resolve(answer(request.method ?? "GET", path, request.headers.authorization ?? null))
      .catch((error: unknown): Answer => {
        log.error("worker http: answering failed", { path, error });
        return { status: 500, headers: { "Content-Type": "application/json" }, body: JSON.stringify({ error: "internal_error" }) };
      })
      .then(({ status, headers, body }) => response.writeHead(status, headers).end(request.method === "HEAD" ? undefined : body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as { address: string; port: number };
  const url = `http://${address.address.includes(":") ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    url,
    serve: (running) => {
      worker = running;
    },
    waitingForDatabase: (reason) => {
      starting = { ready: false, reason: `the worker is starting: waiting for the database (${reason})` };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Where the worker's operator listener (/healthz, /readyz, /metrics) listens.
 * A production process, or any process whose WORKER_HTTP_PORT is set, listens
 * on exactly that port (3001 unless set) and stops when it is taken: probes
 * and scrapers point at it. `npm run dev` with the port unset takes 3001 when
 * free and otherwise any free port, and prints it: 3001 is a common port for a
 * second development server, and nothing points at the demo's worker.
 */
export const defaultWorkerHttpPort = 3001;

export async function startWorkerListener(env: Pick<Env, "WORKER_HTTP_HOST" | "WORKER_HTTP_PORT">, mode: "dev" | "start" | "worker"): Promise<WorkerHttp> {
  const port = env.WORKER_HTTP_PORT ?? defaultWorkerHttpPort;
  try {
    return await startWorkerHttp(env.WORKER_HTTP_HOST, port);
  } catch (error) {
    const taken = (error as NodeJS.ErrnoException).code === "EADDRINUSE";
    if (!taken || mode !== "dev" || env.WORKER_HTTP_PORT !== undefined) {
      throw new Error(
        `The worker's HTTP listener cannot start on ${env.WORKER_HTTP_HOST}:${port} (${(error as Error).message}): set WORKER_HTTP_PORT to a free port, or 0 for any.`,
      );
    }
    const listener = await startWorkerHttp(env.WORKER_HTTP_HOST, 0);
    console.log(
      `Port ${port} is taken, so the worker's /healthz, /readyz and /metrics are on ${listener.url} for this run (set WORKER_HTTP_PORT to choose a port).`,
    );
    return listener;
  }
}
