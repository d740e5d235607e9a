import { countFailedSince } from "@/server/webhooks/admin/resend";
import { adminProcedure } from "../trpc";
import { countFailedSinceInput, countFailedSinceOutput } from "./count-failed-since.types";

/** What "resend every failed message since" would resend, shown before the admin confirms. */
export const countFailedSinceProcedure = adminProcedure
  .input(countFailedSinceInput)
  .output(countFailedSinceOutput)
  .query(({ ctx, input }) => countFailedSince(ctx.domain, ctx.member.companyId, input.id, new Date(input.since)));
