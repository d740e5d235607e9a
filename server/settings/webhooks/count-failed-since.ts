import { countFailedSince } from "@/server/webhooks/manage";
import { adminProcedure } from "../trpc";
import { countFailedSinceOutput, resendFailedSinceInput } from "./resend.types";

/** What "resend every failed message since" would resend, shown before the admin confirms. */
export const countFailedSinceProcedure = adminProcedure
  .input(resendFailedSinceInput)
  .output(countFailedSinceOutput)
  .query(({ ctx, input }) => countFailedSince(ctx.domain, ctx.member.companyId, input.id, new Date(input.since)));
