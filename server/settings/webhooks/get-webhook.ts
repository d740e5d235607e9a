import { loadWebhook } from "@/server/webhooks/manage";
import { signedInProcedure } from "../trpc";
import { getWebhookInput, getWebhookOutput } from "./get-webhook.types";
import { viewWebhooks } from "./webhook-view";

export const getWebhookProcedure = signedInProcedure
  .input(getWebhookInput)
  .output(getWebhookOutput)
  .query(async ({ ctx, input }) => {
    const row = await loadWebhook(ctx.domain, ctx.member.companyId, input.id);
    const [webhook] = await viewWebhooks(ctx.sql, ctx.member, [row], ctx.domain.clock.now());
    return { webhook: webhook! };
  });
