import { notFound } from "@/server/api/errors";
import { apiProcedure, ok } from "@/server/api/trpc";
import { readInterview } from "@/server/read/interviews";
import { getInterviewInput, getInterviewMeta, getInterviewOutput } from "./get-interview.types";

export const getInterview = apiProcedure
  .meta(getInterviewMeta)
  .input(getInterviewInput)
  .output(getInterviewOutput)
  .query(async ({ ctx, input }) => {
    const { caller } = ctx;
    const interview = await readInterview(ctx.sql, caller.company.id, input.id);
    if (!interview) throw notFound("interview", input.id);
    return ok(ctx, { interview });
  });
