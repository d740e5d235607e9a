import type { Task } from "graphile-worker";

export type FanOutEventsPayload = { eventIds: string[] };

/**
 * Enqueued by the domain write path in the transaction that appends events.
 * Webhook delivery builds on it; until then it only acknowledges the events.
 */
export const fanOutEvents: Task = async (payload, helpers) => {
  const { eventIds } = payload as FanOutEventsPayload;
  helpers.logger.debug(`fan-out-events: ${eventIds.length} event(s)`);
};
