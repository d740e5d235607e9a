import { candidateNotFound } from "@/server/api/errors";
import { apiProcedure, ok } from "@/server/api/trpc";
import { candidateByIdJson } from "@/server/read/candidates";
import { getCandidateInput, getCandidateMeta, getCandidateOutput } from "./get-candidate.types";

export const getCandidate = apiProcedure
  .meta(getCandidateMeta)
  .input(getCandidateInput)
  .output(getCandidateOutput)
  .query(async ({ ctx, input }) => {
    // Admission and the candidate (as JSON text) in one statement.
    const { page } = await ctx.admission.admitWith<{ item: string | null }>((company) => candidateByIdJson(ctx.sql, company, input.id));
    if (!page?.item) throw candidateNotFound(input.id);
    return ok(ctx, { candidate: JSON.parse(page.item) });
  });
