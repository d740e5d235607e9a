import { candidateNotFound } from "@/server/api/errors";
import { apiProcedure, ok } from "@/server/api/trpc";
import { readCandidate } from "@/server/read/candidates";
import { getCandidateInput, getCandidateMeta, getCandidateOutput } from "./get-candidate.types";

export const getCandidate = apiProcedure
  .meta(getCandidateMeta)
  .input(getCandidateInput)
  .output(getCandidateOutput)
  .query(async ({ ctx, input }) => {
    const candidate = await readCandidate(ctx.sql, ctx.caller.company.id, input.id);
    if (!candidate) throw candidateNotFound(input.id);
    return ok(ctx, { candidate });
  });
