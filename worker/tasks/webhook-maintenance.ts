import type { Task } from "graphile-worker";
import { runWebhookMaintenance } from "@/server/webhooks/delivery/maintenance";
import type { WorkerDeps } from "../deps";
import { makeHistoryDays } from "./history-partitions";

/** Every minute: failure policy, chains and fan-out left behind; and the history's days ahead. */
export const webhookMaintenance =
  (deps: WorkerDeps): Task =>
  async () => {
    await runWebhookMaintenance(deps);
    await makeHistoryDays(deps);
  };
