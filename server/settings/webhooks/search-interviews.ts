import { searchInterviewTitles } from "@/server/read/interviews";
import { adminProcedure } from "../trpc";
import { searchInterviewsInput, searchInterviewsOutput } from "./search-interviews.types";

/** For choosing a webhook's interviews and a sample's interview. */
export const searchInterviewsProcedure = adminProcedure
  .input(searchInterviewsInput)
  .output(searchInterviewsOutput)
  .query(async ({ ctx, input }) => ({ interviews: await searchInterviewTitles(ctx.sql, ctx.member.companyId, input.query) }));
