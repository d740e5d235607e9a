import { sendSample } from "@/server/webhooks/admin/send-sample";
import { adminProcedure } from "../trpc";
import { sendSampleInput, sendSampleOutput } from "./send-sample.types";

export const sendSampleProcedure = adminProcedure
  .input(sendSampleInput)
  .output(sendSampleOutput)
  .mutation(async ({ ctx, input }) => ({
    messageId: (await sendSample(ctx.domain, ctx.member.companyId, input.id, input.interviewId, input.eventType)).messageId,
  }));
