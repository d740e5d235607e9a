import type { Task } from "graphile-worker";
import type { WebhookDeps } from "@/server/webhooks/deps";
import { deleteExpiredHistory, runWebhookMaintenance } from "@/server/webhooks/maintenance";

/** Every minute: failure policy, interrupted attempts. */
export const webhookMaintenance =
  (deps: WebhookDeps): Task =>
  async () => {
    await runWebhookMaintenance(deps);
  };

/** Every hour: the delivery log and the event history keep 30 days. */
export const deleteExpired =
  (deps: WebhookDeps): Task =>
  async () => {
    await deleteExpiredHistory(deps);
  };
