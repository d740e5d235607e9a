import type { Task } from "graphile-worker";
import type { DeliverPayload } from "@/server/jobs/queue";
import { deliverMessage } from "@/server/webhooks/deliver";
import type { WorkerDeps } from "../deps";

/**
 * One attempt of one message. Failed deliveries are not errors here: the
 * message records them and schedules its own retry. Only infrastructure
 * faults (the database gone) throw, and graphile-worker retries those.
 */
export const deliverWebhookMessage =
  (deps: WorkerDeps): Task =>
  async (payload, helpers) => {
    const { messageId } = payload as DeliverPayload;
    const outcome = await deliverMessage(deps, messageId);
    helpers.logger.debug(`message ${messageId}: ${outcome}`);
  };
