import { z } from "zod";
import { openapi } from "./common";
import { interviewSchema, successEnvelope } from "./schemas";

export const getInterviewMeta = openapi({
  path: "/interviews/{id}",
  operationId: "getInterview",
  summary: "One interview with its steps",
  description: "Form question ids are the keys of candidates' `answers`.",
  tags: ["Interviews"],
});
export const getInterviewInput = z.object({ id: z.string() });
export const getInterviewOutput = successEnvelope(z.object({ interview: interviewSchema.meta({ description: "the interview with its steps" }) }));
