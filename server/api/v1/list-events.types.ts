import { z } from "zod";
import { historyRetentionDays } from "@/db/partitions";
import { eventTypes } from "@/db/schema";
import type { EventPosition } from "@/server/read/events";
import { openapi } from "./common";
import { cursorParam, enumListParam, idParam, limitParam } from "./query-params";
import { eventSchema, successEnvelope } from "./schemas";

export const listEventsMeta = openapi({
  path: "/events",
  operationId: "listEvents",
  summary: "The change history, oldest first",
  description:
    `Covers the last ${historyRetentionDays} days. ` +
    "`next_cursor` is returned on every response, even an empty one: store it and send it " +
    "as `after` to receive only newer events. `has_more` true means more events are waiting now.",
  tags: ["Events"],
});
export const listEventsInput = z.object({
  after: cursorParam<EventPosition>(["events"]).optional().meta({ description: "the next_cursor of the previous call; omitted: the oldest kept event" }),
  type: enumListParam(eventTypes).optional(),
  interview_id: idParam().optional(),
  limit: limitParam(25),
});
export const listEventsOutput = successEnvelope(
  z.object({
    events: z.array(eventSchema).meta({ description: "this page of events, oldest first" }),
    next_cursor: z.string().meta({ description: "the position after the last event seen; store it and send it as `after` to receive only newer events" }),
    has_more: z.boolean().meta({ description: "true when more events are waiting now; false when caught up" }),
  }),
);
