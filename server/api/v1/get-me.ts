import { apiProcedure, ok } from "@/server/api/trpc";
import { getMeInput, getMeMeta, getMeOutput } from "./get-me.types";

export const getMe = apiProcedure
  .meta(getMeMeta)
  .input(getMeInput)
  .output(getMeOutput)
  .query(async ({ ctx }) => {
    const caller = await ctx.admission.admit();
    return ok(ctx, { company: caller.company, api_key: caller.apiKey });
  });
