import type { Task } from "graphile-worker";
import type { FanOutPayload } from "@/server/jobs/queue";
import { fanOutCompany } from "@/server/webhooks/fan-out";
import type { WorkerDeps } from "../deps";

/**
 * Enqueued by the domain write path in the transaction that appends events. A
 * job of the old form (event ids, from a process not yet upgraded) names no
 * company: it is dropped, and the maintenance run's catch-up covers its events.
 */
export const fanOutEvents =
  (deps: WorkerDeps): Task =>
  async (payload) => {
    const { companyId } = payload as Partial<FanOutPayload>;
    if (companyId) await fanOutCompany(deps.ctx, companyId);
  };
