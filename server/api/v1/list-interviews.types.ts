import { z } from "zod";
import { interviewStatuses } from "@/db/schema";
import type { InterviewPosition } from "@/server/read/interviews";
import { openapi } from "./common";
import { cursorParam, enumParam, limitParam } from "./query-params";
import { interviewSchema, successEnvelope } from "./schemas";

export const listInterviewsMeta = openapi({
  path: "/interviews",
  operationId: "listInterviews",
  summary: "Interviews, newest first",
  description: "Deleted interviews are never listed. Follow `next_cursor` (null on the last page) as `cursor`.",
  tags: ["Interviews"],
});
export const listInterviewsInput = z.object({
  status: enumParam(interviewStatuses).optional(),
  limit: limitParam(100),
  cursor: cursorParam<InterviewPosition>(["interviews"]).optional(),
});
export const listInterviewsOutput = successEnvelope(
  z.object({
    interviews: z.array(interviewSchema).meta({ description: "this page of interviews" }),
    next_cursor: z.string().nullable().meta({ description: "send it as `cursor` for the next page; null on the last page" }),
  }),
);
