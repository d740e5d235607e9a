import type { EventType } from "@/db/schema";
import { apiProcedure, ok } from "@/server/api/trpc";
import { readEventPage } from "@/server/read/events";
import { encodeCursor } from "@/server/security/cursors";
import { listEventsInput, listEventsMeta, listEventsOutput } from "./list-events.types";
import { cursorPosition, splitList } from "./query-params";

export const listEvents = apiProcedure
  .meta(listEventsMeta)
  .input(listEventsInput)
  .output(listEventsOutput)
  .query(async ({ ctx, input }) => {
    const companyId = ctx.caller.company.id;
    if (input.after) cursorPosition("after", input.after, companyId);
    // The events, their candidates and where the next call starts come from one statement, so from one snapshot.
    const page = await readEventPage(ctx.sql, companyId, {
      types: input.type ? (splitList(input.type) as EventType[]) : undefined,
      interviewId: input.interview_id,
      limit: input.limit,
      after: input.after?.position,
    });
    return ok(ctx, { events: page.events, next_cursor: encodeCursor("events", companyId, page.next), has_more: page.hasMore });
  });
