import { apiProcedure, ok } from "@/server/api/trpc";
import { getMeInput, getMeMeta, getMeOutput } from "./get-me.types";

export const getMe = apiProcedure
  .meta(getMeMeta)
  .input(getMeInput)
  .output(getMeOutput)
  .query(({ ctx }) => ok(ctx, { company: ctx.caller.company, api_key: ctx.caller.apiKey }));
