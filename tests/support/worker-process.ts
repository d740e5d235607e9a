/**
 * The real worker process for tests: `main.ts worker`, as `npm run
 * start:worker` runs it, from the file it is bundled into once per run (see
 * global-setup.ts), or through tsx's loader as that command does, where the
 * command is the point.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, inject } from "vitest";

/** `httpUrl`: its /healthz, /readyz and /metrics listener (on any free port unless the test sets WORKER_HTTP_PORT). */
export type WorkerProcess = { child: ChildProcess; output: () => string; httpUrl: string };

const workerCommands = {
  bundled: () => [inject("bundles").main, "worker"],
  documented: () => ["--import", "tsx", "server/runtime/main.ts", "worker"],
};

/**
 * How one worker differs from the rest: `env` on top of the base one, and a
 * command it is started under (`["faketime", "-f", "+120s"]`: on another clock).
 */
export type WorkerVariant = { env?: Record<string, string>; under?: string[] };

/** Starts worker processes on demand and kills any left at the end of each test. */
export function useWorkerProcesses(baseEnv: () => Record<string, string>, command: keyof typeof workerCommands = "bundled") {
  const started: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of started.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await new Promise((resolve) => child.once("exit", resolve));
      }
    }
  });
  return async function start(variant: WorkerVariant = {}): Promise<WorkerProcess> {
    const [program, ...args] = [...(variant.under ?? []), process.execPath, ...workerCommands[command]()];
    const child = spawn(program!, args, {
      env: { ...process.env, NODE_ENV: "production", WORKER_CONCURRENCY: "4", WORKER_HTTP_PORT: "0", ...baseEnv(), ...variant.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.push(child);
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 30_000;
    while (!output.includes("worker started")) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`The worker did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const httpUrl = /"message":"worker endpoints listening","url":"([^"]+)"/.exec(output)?.[1] ?? "";
    return { child, output: () => output, httpUrl };
  };
}
