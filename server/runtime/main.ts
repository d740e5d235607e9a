/**
 * Process entry point.
 *   dev     embedded or given database, migrations, demo data, the web server
 *           in Next.js's development mode, and the worker
 *   start   the same with the production build and no demo data
 *   web     only the web server (production build)
 *   worker  only the worker
 * Several `web` and `worker` processes can share one database.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { webServerArguments } from "./web/command";

type Mode = "dev" | "start" | "web" | "worker";
const modes: Mode[] = ["dev", "start", "web", "worker"];

const mode = process.argv[2] as Mode;
if (!modes.includes(mode)) {
  console.error(`usage: main.ts ${modes.join("|")}`);
  process.exit(2);
}
(process.env as Record<string, string>).NODE_ENV ??= mode === "dev" ? "development" : "production";

const { appSecret, env } = await import("@/server/env").catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
// Both processes seal and decrypt with APP_SECRET: one that has none for a server at DATABASE_URL stops here, naming it.
try {
  appSecret();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const { log } = await import("@/server/log");
const { surviveDeadConnections } = await import("./driver-faults");
surviveDeadConnections();
const { prepareDatabase } = await import("./prepare");

// The worker's /healthz, /readyz and /metrics answer from the start, while the database is prepared.
const { startWorkerListener } = await import("@/worker/listener");
const workerHttp =
  mode === "web"
    ? null
    : await startWorkerListener(env, mode).catch((error: Error) => {
        console.error(error.message);
        process.exit(1);
      });
if (workerHttp) log.info("worker endpoints listening", { url: workerHttp.url, endpoints: ["/healthz", "/readyz", "/metrics"] });

// A database that is not there yet is waited for, said once per reason and half minute (and on the worker's /readyz);
// one that cannot start, or refuses us, says why in its message, and a stack trace would bury it.
const { logOutage } = await import("@/server/observability/outage-log");
const database = await prepareDatabase(env, (unavailable) => {
  logOutage("start-up", unavailable);
  workerHttp?.waitingForDatabase(unavailable.reason);
}).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
const stops: Array<() => Promise<void>> = [];
let stopDemoReceiver = async () => {};
// Where webhooks may deliver despite the public-address rule, and the CA file they trust.
let webhookTargets = env.WEBHOOK_ALLOW_TARGETS;
let webhookCaFile = env.WEBHOOK_CA_FILE;

if (mode === "dev") {
  // The demo webhook's receiver: allowed and trusted here only, by passing it
  // to this process's seed and worker, and to the web server in its environment.
  const { startDemoReceiver } = await import("@/server/demo/receiver");
  const receiver = await startDemoReceiver(env.DATA_DIR, env.DEMO_RECEIVER_PORT).catch((error: Error) => {
    log.warn("the demo webhook receiver did not start; set DEMO_RECEIVER_PORT to a free port", { port: env.DEMO_RECEIVER_PORT, error: error.message });
    return null;
  });
  if (receiver) {
    stopDemoReceiver = receiver.close;
    webhookTargets = [...webhookTargets, receiver.target];
    webhookCaFile ??= receiver.caFile;
  }
  const { printDemoWelcome } = await import("@/server/demo/welcome");
  await printDemoWelcome(
    database.url,
    receiver ? { webhook: { url: receiver.url, addresses: { allowTargets: webhookTargets }, extraCa: readFileSync(receiver.caFile, "utf8") } } : {},
  );
}

if (mode !== "worker") {
  // The web server vets addresses admins save; it needs the targets, not the CA.
  // Given the embedded database's address, the web process would find no development secret of its own (server/env.ts): it gets this process's.
  const web = startWebServer(mode === "dev" ? "dev" : "start", {
    DATABASE_URL: database.url,
    APP_SECRET: appSecret(),
    NEXTAUTH_SECRET: env.NEXTAUTH_SECRET,
    WEBHOOK_ALLOW_TARGETS: webhookTargets.join(","),
  });
  stops.push(() => stopChild(web));
}
if (mode !== "web") {
  const { startWorker } = await import("@/worker/run");
  const runner = await startWorker({
    connectionString: database.url,
    concurrency: env.WORKER_CONCURRENCY,
    pools: { database: env.WORKER_DATABASE_POOL_SIZE, jobs: env.WORKER_JOB_POOL_SIZE },
    deliveries: { slots: env.WEBHOOK_MAX_IN_FLIGHT, perWebhook: env.WEBHOOK_CONCURRENCY },
    delivery: { allowTargets: webhookTargets, extraCa: webhookCaFile ? readFileSync(webhookCaFile, "utf8") : undefined },
  });
  stops.push(() => runner.stop());
  workerHttp!.serve(runner);
  stops.push(() => workerHttp!.close());
  log.info("worker started", { concurrency: env.WORKER_CONCURRENCY, webhookConcurrency: env.WEBHOOK_CONCURRENCY });
}
stops.push(() => stopDemoReceiver(), database.stop);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info("stopping", { signal });
  for (const stop of stops) {
    await stop().catch((error: unknown) => log.error("error while stopping", { error }));
  }
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

/** `childEnv`: what the web server's own `env` must parse beyond this process's environment. */
function startWebServer(command: "dev" | "start", childEnv: Record<string, string>): ChildProcess {
  const host = env.HOST ?? (command === "dev" ? "localhost" : "0.0.0.0");
  const child = spawn(process.execPath, webServerArguments(command, env.PORT, host), {
    env: { ...process.env, ...childEnv },
    stdio: "inherit",
  });
  child.on("exit", (code, signal) => {
    if (!stopping) {
      log.error("web server exited", { code, signal });
      void shutdown("web-exit");
    }
  });
  return child;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
