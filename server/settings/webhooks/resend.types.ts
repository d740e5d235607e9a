import { z } from "zod";
import { eventTypes } from "@/db/schema/event-types";
import { pickedTime, recordId } from "@/server/settings/inputs.types";

export const resendMessageInput = z.object({ messageId: recordId });
export const resendMessageOutput = z.object({ messageId: z.string() });

export const resendFailedSinceInput = z.object({ id: recordId, since: pickedTime });
export const resendFailedSinceOutput = z.object({ resent: z.number(), more: z.boolean() });
/** Asked before resending: `resendNow` of the `failed` messages go with the next resend (it takes at most 1,000). */
export const countFailedSinceOutput = z.object({ failed: z.number(), resendNow: z.number() });

export const sendSampleInput = z.object({
  id: recordId,
  interviewId: z.string().min(1, "Choose an interview."),
  eventType: z.enum(eventTypes, { message: "Choose an event type." }),
});
export const sendSampleOutput = z.object({ messageId: z.string() });
