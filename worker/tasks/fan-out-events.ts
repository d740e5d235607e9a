import type { Task } from "graphile-worker";
import type { FanOutPayload } from "@/server/jobs/queue";
import type { WebhookDeps } from "@/server/webhooks/deps";
import { fanOutCompany } from "@/server/webhooks/fan-out";

/** Enqueued by the domain write path in the transaction that appends events. */
export const fanOutEvents =
  (deps: WebhookDeps): Task =>
  async (payload) => {
    await fanOutCompany(deps.ctx, (payload as FanOutPayload).companyId);
  };
