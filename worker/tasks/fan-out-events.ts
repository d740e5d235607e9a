import type { Task } from "graphile-worker";
import type { FanOutPayload } from "@/server/jobs/queue";
import { fanOutRuns } from "@/server/webhooks/delivery/fan-out-runs";
import type { WorkerDeps } from "../deps";

/** Enqueued by the domain write path in the transaction that appends events; it names the company only (fan-out-runs.ts folds a company's jobs into one run). */
export const fanOutEvents = (deps: Pick<WorkerDeps, "ctx">): Task => {
  const fanOut = fanOutRuns(deps.ctx);
  return (payload) => fanOut((payload as FanOutPayload).companyId);
};
