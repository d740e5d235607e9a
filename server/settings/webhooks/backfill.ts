import { backfill } from "@/server/webhooks/admin/backfill";
import { adminProcedure } from "../trpc";
import { backfillInput, backfillOutput } from "./backfill.types";

export const backfillProcedure = adminProcedure
  .input(backfillInput)
  .output(backfillOutput)
  .mutation(({ ctx, input }) => backfill(ctx.domain, ctx.member.companyId, input.id, new Date(input.since)));
