import { decodeCursor, encodeCursor } from "@/server/security/cursors";
import { apiProcedure, ok } from "@/server/api/trpc";
import { type InterviewPosition, listInterviews as readInterviews } from "@/server/read/interviews";
import { listInterviewsInput, listInterviewsMeta, listInterviewsOutput } from "./list-interviews.types";

export const listInterviews = apiProcedure
  .meta(listInterviewsMeta)
  .input(listInterviewsInput)
  .output(listInterviewsOutput)
  .query(async ({ ctx, input }) => {
    const companyId = ctx.caller.company.id;
    const after = input.cursor ? decodeCursor<InterviewPosition>(["interviews"], companyId, input.cursor) : null;
    const page = await readInterviews(ctx.sql, companyId, {
      status: input.status,
      limit: input.limit,
      after: after?.ok ? after.position : undefined,
    });
    return ok(ctx, {
      interviews: page.interviews,
      next_cursor: page.next ? encodeCursor("interviews", companyId, page.next) : null,
    });
  });
