import { expirePreviousSecret } from "@/server/webhooks/admin/webhook-secret";
import { adminProcedure } from "../trpc";
import { expirePreviousSecretInput } from "./expire-previous-secret.types";

/** Stops signing with the replaced secret now instead of 24 hours after the replacement. */
export const expirePreviousSecretProcedure = adminProcedure
  .input(expirePreviousSecretInput)
  .mutation(async ({ ctx, input }) => void (await expirePreviousSecret(ctx.domain, ctx.member.companyId, input.id)));
