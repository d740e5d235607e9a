import { rotateWebhookSecret } from "@/server/webhooks/manage";
import { adminProcedure } from "../trpc";
import { webhookIdInput } from "./get-webhook.types";
import { rotateWebhookSecretOutput } from "./webhook-secret.types";

export const rotateWebhookSecretProcedure = adminProcedure
  .input(webhookIdInput)
  .output(rotateWebhookSecretOutput)
  .mutation(async ({ ctx, input }) => {
    const { secret, previousValidUntil } = await rotateWebhookSecret(ctx.domain, ctx.member.companyId, input.id);
    return { secret, previousValidUntil: previousValidUntil.toISOString() };
  });
