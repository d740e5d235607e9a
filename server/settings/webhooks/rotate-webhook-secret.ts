import { rotateWebhookSecret } from "@/server/webhooks/admin/webhook-secret";
import { adminProcedure } from "../trpc";
import { rotateWebhookSecretInput, rotateWebhookSecretOutput } from "./rotate-webhook-secret.types";

export const rotateWebhookSecretProcedure = adminProcedure
  .input(rotateWebhookSecretInput)
  .output(rotateWebhookSecretOutput)
  .mutation(async ({ ctx, input }) => {
    const { secret, previousValidUntil } = await rotateWebhookSecret(ctx.domain, ctx.member.companyId, input.id);
    return { secret, previousValidUntil: previousValidUntil?.toISOString() ?? null };
  });
