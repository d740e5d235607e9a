import { updateWebhook } from "@/server/webhooks/admin/webhook-settings";
import { adminProcedure } from "../trpc";
import { updateWebhookInput, updateWebhookOutput } from "./update-webhook.types";
import { webhookAddresses } from "./webhook-addresses";

export const updateWebhookProcedure = adminProcedure
  .input(updateWebhookInput(webhookAddresses.allowTargets))
  .output(updateWebhookOutput)
  .mutation(({ ctx, input }) => updateWebhook(ctx.domain, ctx.member.companyId, input.id, input.changes, webhookAddresses));
