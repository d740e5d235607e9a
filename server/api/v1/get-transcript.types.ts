import { z } from "zod";
import { openapi } from "./common";
import { successEnvelope, transcriptEntrySchema } from "./schemas";

export const getTranscriptMeta = openapi({
  path: "/candidates/{id}/transcript",
  operationId: "getTranscript",
  summary: "The AI interview, question by question",
  description: "An empty list when there is no AI interview yet.",
  tags: ["Candidates"],
});
export const getTranscriptInput = z.object({ id: z.string() });
export const getTranscriptOutput = successEnvelope(
  z.object({
    transcript: z.array(transcriptEntrySchema).meta({ description: "the AI interview, question by question; empty when there is no AI interview yet" }),
  }),
);
