import { apiProcedure, ok } from "@/server/api/trpc";
import { readInterviewPage } from "@/server/read/interviews";
import { encodeCursor } from "@/server/security/cursors";
import { listInterviewsInput, listInterviewsMeta, listInterviewsOutput } from "./list-interviews.types";
import { cursorPosition } from "./query-params";

export const listInterviews = apiProcedure
  .meta(listInterviewsMeta)
  .input(listInterviewsInput)
  .output(listInterviewsOutput)
  .query(async ({ ctx, input }) => {
    const { caller } = ctx;
    const companyId = caller.company.id;
    const page = await readInterviewPage(ctx.sql, companyId, {
      status: input.status,
      limit: input.limit,
      after: input.cursor && cursorPosition("cursor", input.cursor, companyId),
    });
    return ok(ctx, {
      interviews: page.interviews,
      next_cursor: page.next ? encodeCursor("interviews", companyId, page.next) : null,
    });
  });
