import type { Task } from "graphile-worker";
import { deleteExpiredHistory, runWebhookMaintenance } from "@/server/webhooks/delivery/maintenance";
import type { WorkerDeps } from "../deps";

/** Every minute: failure policy, interrupted attempts. */
export const webhookMaintenance =
  (deps: WorkerDeps): Task =>
  async () => {
    await runWebhookMaintenance(deps);
  };

/** Every hour: the delivery log and the event history keep 30 days. */
export const deleteExpiredHistoryTask =
  (deps: WorkerDeps): Task =>
  async () => {
    await deleteExpiredHistory(deps);
  };
