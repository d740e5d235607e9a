import { resendFailedSince } from "@/server/webhooks/admin/resend";
import { adminProcedure } from "../trpc";
import { resendFailedSinceInput, resendFailedSinceOutput } from "./resend-failed-since.types";

export const resendFailedSinceProcedure = adminProcedure
  .input(resendFailedSinceInput)
  .output(resendFailedSinceOutput)
  .mutation(({ ctx, input }) => resendFailedSince(ctx.domain, ctx.member.companyId, input.id, new Date(input.since)));
