import { z } from "zod";

export const resendMessageInput = z.object({ messageId: z.string().min(1) });
export const resendMessageOutput = z.object({ messageId: z.string() });

export const resendFailedSinceInput = z.object({ id: z.string().min(1), since: z.iso.datetime({ offset: true }) });
export const resendFailedSinceOutput = z.object({ resent: z.number(), more: z.boolean() });
/** Asked before resending: `resendNow` of the `failed` messages go with the next resend (it takes at most 1,000). */
export const countFailedSinceOutput = z.object({ failed: z.number(), resendNow: z.number() });

export const sendSampleInput = z.object({ id: z.string().min(1), interviewId: z.string().min(1, "Choose an interview.") });
export const sendSampleOutput = z.object({ messageId: z.string() });
