import { candidateNotFound } from "@/server/api/errors";
import { apiProcedure, ok } from "@/server/api/trpc";
import { readTranscript } from "@/server/read/candidates";
import { getTranscriptInput, getTranscriptMeta, getTranscriptOutput } from "./get-transcript.types";

export const getTranscript = apiProcedure
  .meta(getTranscriptMeta)
  .input(getTranscriptInput)
  .output(getTranscriptOutput)
  .query(async ({ ctx, input }) => {
    const { caller } = ctx;
    const transcript = await readTranscript(ctx.sql, caller.company.id, input.id);
    if (!transcript) throw candidateNotFound(input.id);
    return ok(ctx, { transcript: [...transcript] });
  });
