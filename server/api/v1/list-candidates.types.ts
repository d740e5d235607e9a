import { z } from "zod";
import { candidateStatuses } from "@/db/schema";
import { type CandidatePosition, candidateStates } from "@/server/read/candidates";
import { openapi } from "./common";
import { cursorParam, dateTimeParam, enumListParam, enumParam, idParam, limitParam } from "./query-params";
import { candidateSchema, successEnvelope } from "./schemas";

export const listCandidatesMeta = openapi({
  path: "/candidates",
  operationId: "listCandidates",
  summary: "Candidates (attempts)",
  description:
    "state=submitted (default) lists by most recent submission first; in_progress and all list newest started first. " +
    "The order does not change while paging: following `next_cursor` skips no one. Previews are never listed.",
  tags: ["Candidates"],
});
export const listCandidatesInput = z.object({
  interview_id: idParam().optional(),
  status: enumListParam(candidateStatuses).optional(),
  state: enumParam(candidateStates).default("submitted"),
  submitted_after: dateTimeParam().optional().meta({ description: "submitted at or after this time" }),
  submitted_before: dateTimeParam().optional().meta({ description: "submitted before this time" }),
  limit: limitParam(25),
  cursor: cursorParam<CandidatePosition>(["candidates:submitted", "candidates:started"]).optional(),
});
export const listCandidatesOutput = successEnvelope(
  z.object({
    candidates: z.array(candidateSchema).meta({ description: "this page of candidates" }),
    next_cursor: z.string().nullable().meta({ description: "send it as `cursor` for the next page; null on the last page" }),
  }),
);
