import { z } from "zod";
import { eventTypes } from "@/db/schema/event-types";
import { recordId } from "@/server/settings/inputs.types";

export const sendSampleInput = z.object({
  id: recordId,
  interviewId: z.string().min(1, "Choose an interview."),
  eventType: z.enum(eventTypes, { message: "Choose an event type." }),
});
export const sendSampleOutput = z.object({ messageId: z.string() });
