import type { Task } from "graphile-worker";
import type { FanOutPayload } from "@/server/jobs/queue";
import { fanOutCompany } from "@/server/webhooks/delivery/fan-out";
import type { WorkerDeps } from "../deps";

/** Enqueued by the domain write path in the transaction that appends events; it names the company only. */
export const fanOutEvents =
  (deps: WorkerDeps): Task =>
  async (payload) => {
    await fanOutCompany(deps.ctx, (payload as FanOutPayload).companyId);
  };
