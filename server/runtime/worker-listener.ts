/**
 * Where the worker's operator listener (/healthz, /readyz, /metrics) listens.
 * A production process, or any process whose WORKER_HTTP_PORT is set, listens
 * on exactly that port (3001 unless set) and stops when it is taken: probes
 * and scrapers point at it. `npm run dev` with the port unset takes 3001 when
 * free and otherwise any free port, and prints it: 3001 is a common port for a
 * second development server, and nothing points at the demo's worker.
 */
import type { Env } from "@/server/env";
import { startWorkerHttp, type WorkerHttp } from "@/worker/http-server";

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
