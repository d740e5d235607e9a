import type { EventType } from "@/db/schema";
import { decodeCursor, encodeCursor } from "@/server/security/cursors";
import { apiProcedure, ok } from "@/server/api/trpc";
import { type EventPosition, listEvents as readEvents } from "@/server/read/events";
import { listEventsInput, listEventsMeta, listEventsOutput } from "./list-events.types";
import { splitList } from "./query-params";

export const listEvents = apiProcedure
  .meta(listEventsMeta)
  .input(listEventsInput)
  .output(listEventsOutput)
  .query(async ({ ctx, input }) => {
    const companyId = ctx.caller.company.id;
    const after = input.after ? decodeCursor<EventPosition>(["events"], companyId, input.after) : null;
    const page = await readEvents(ctx.sql, companyId, {
      types: input.type ? (splitList(input.type) as EventType[]) : undefined,
      interviewId: input.interview_id,
      limit: input.limit,
      after: after?.ok ? after.position : undefined,
    });
    return ok(ctx, { events: page.events, next_cursor: encodeCursor("events", companyId, page.next), has_more: page.hasMore });
  });
