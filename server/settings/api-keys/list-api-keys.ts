import { listApiKeys } from "@/server/read/api-keys";
import { adminProcedure } from "../trpc";
import { listApiKeysOutput } from "./list-api-keys.types";

export const listApiKeysProcedure = adminProcedure
  .output(listApiKeysOutput)
  .query(async ({ ctx }) => ({ keys: await listApiKeys(ctx.sql, ctx.member.companyId) }));
