import type { Task } from "graphile-worker";
import { fanOutEvents as fanOut } from "@/server/webhooks/fan-out";
import type { WebhookDeps } from "@/server/webhooks/deps";

export type FanOutEventsPayload = { eventIds: string[] };

/** Enqueued by the domain write path in the transaction that appends events. */
export const fanOutEvents =
  (deps: WebhookDeps): Task =>
  async (payload) => {
    await fanOut(deps.ctx, (payload as FanOutEventsPayload).eventIds);
  };
