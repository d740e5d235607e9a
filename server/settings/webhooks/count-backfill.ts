import { countBackfill, maxBackfillBatch } from "@/server/webhooks/admin/backfill";
import { adminProcedure } from "../trpc";
import { countBackfillInput, countBackfillOutput } from "./count-backfill.types";

/** Counts exactly what `backfill` would send, for the confirmation. */
export const countBackfillProcedure = adminProcedure
  .input(countBackfillInput)
  .output(countBackfillOutput)
  .query(async ({ ctx, input }) => ({
    ...(await countBackfill(ctx.domain, ctx.member.companyId, input.id, new Date(input.since))),
    batch: maxBackfillBatch,
  }));
