import type { EventType } from "@/db/schema";
import { apiProcedure, okWithList } from "@/server/api/trpc";
import { type EventPageJson, eventPageJson, eventPageNext } from "@/server/read/events";
import { encodeCursor } from "@/server/security/cursors";
import { listEventsInput, listEventsMeta, listEventsOutput } from "./list-events.types";
import { cursorPosition, splitList } from "./query-params";

export const listEvents = apiProcedure
  .meta(listEventsMeta)
  .input(listEventsInput)
  .output(listEventsOutput)
  .query(async ({ ctx, input }) => {
    const options = {
      types: input.type ? (splitList(input.type) as EventType[]) : undefined,
      interviewId: input.interview_id,
      limit: input.limit,
      after: input.after?.position,
    };
    // Admission, the events, their candidates (as JSON text) and where the
    // next call starts in one statement, so from one snapshot; read only for
    // the cursor's company.
    const { caller, page } = await ctx.admission.admitWith<EventPageJson>((company) => eventPageJson(ctx.sql, company, options), {
      onlyForCompany: input.after?.companyId,
    });
    const companyId = caller.company.id;
    if (input.after) cursorPosition("after", input.after, companyId);
    const next = eventPageNext(page!, options.after);
    return okWithList(ctx, "events", page!.items, { next_cursor: encodeCursor("events", companyId, next), has_more: page!.has_more });
  });
