import { expirePreviousSecret } from "@/server/webhooks/manage";
import { adminProcedure } from "../trpc";
import { webhookIdInput } from "./get-webhook.types";

/** Stops signing with the replaced secret now instead of 24 hours after the replacement. */
export const expirePreviousSecretProcedure = adminProcedure
  .input(webhookIdInput)
  .mutation(async ({ ctx, input }) => void (await expirePreviousSecret(ctx.domain, ctx.member.companyId, input.id)));
