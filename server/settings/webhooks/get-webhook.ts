import { loadWebhook } from "@/server/webhooks/admin/find-webhook";
import { viewWebhooks } from "@/server/webhooks/views/webhook-view";
import { signedInProcedure } from "../trpc";
import { getWebhookInput, getWebhookOutput } from "./get-webhook.types";

export const getWebhookProcedure = signedInProcedure
  .input(getWebhookInput)
  .output(getWebhookOutput)
  .query(async ({ ctx, input }) => {
    const row = await loadWebhook(ctx.domain, ctx.member.companyId, input.id);
    const [webhook] = await viewWebhooks(ctx.sql, ctx.member, [row], ctx.domain.clock.now());
    return { webhook: webhook! };
  });
