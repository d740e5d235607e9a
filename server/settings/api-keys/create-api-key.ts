import { createApiKey } from "@/server/domain/accounts";
import { adminProcedure } from "../trpc";
import { createApiKeyInput, createApiKeyOutput } from "./create-api-key.types";

export const createApiKeyProcedure = adminProcedure
  .input(createApiKeyInput)
  .output(createApiKeyOutput)
  .mutation(({ ctx, input }) => createApiKey(ctx.domain, { companyId: ctx.member.companyId, name: input.name, createdByUserId: ctx.member.userId }));
