import { resendMessage } from "@/server/webhooks/admin/resend";
import { adminProcedure } from "../trpc";
import { resendMessageInput, resendMessageOutput } from "./resend-message.types";

export const resendMessageProcedure = adminProcedure
  .input(resendMessageInput)
  .output(resendMessageOutput)
  .mutation(async ({ ctx, input }) => ({ messageId: (await resendMessage(ctx.domain, ctx.member.companyId, input.messageId)).id }));
