import { revokeApiKey } from "@/server/domain/accounts";
import { adminProcedure } from "../trpc";
import { revokeApiKeyInput } from "./revoke-api-key.types";

/** The key fails from its next API request on: admission reads `revoked_at` every time. */
export const revokeApiKeyProcedure = adminProcedure
  .input(revokeApiKeyInput)
  .mutation(async ({ ctx, input }) => void (await revokeApiKey(ctx.domain, input.id, ctx.member.companyId)));
