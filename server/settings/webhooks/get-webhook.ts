import { getWebhook } from "@/server/webhooks/manage";
import { memberProcedure } from "../trpc";
import { getWebhookOutput, webhookIdInput } from "./get-webhook.types";
import { viewWebhooks } from "./webhook-view";

export const getWebhookProcedure = memberProcedure
  .input(webhookIdInput)
  .output(getWebhookOutput)
  .query(async ({ ctx, input }) => {
    const row = await getWebhook(ctx.ctx, ctx.member.companyId, input.id);
    const [webhook] = await viewWebhooks(ctx.sql, ctx.member, [row], ctx.ctx.clock.now());
    return { webhook: webhook! };
  });
