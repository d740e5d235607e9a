import { z } from "zod";
import { openapi } from "./common";
import { candidateSchema, successEnvelope } from "./schemas";

export const getCandidateMeta = openapi({
  path: "/candidates/{id}",
  operationId: "getCandidate",
  summary: "One attempt, in any state",
  tags: ["Candidates"],
});
export const getCandidateInput = z.object({ id: z.string() });
export const getCandidateOutput = successEnvelope(z.object({ candidate: candidateSchema.meta({ description: "the candidate (one attempt)" }) }));
