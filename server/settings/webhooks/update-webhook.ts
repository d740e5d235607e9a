import { updateWebhook } from "@/server/webhooks/manage";
import { adminProcedure } from "../trpc";
import { updateWebhookInput } from "./update-webhook.types";
import { webhookAddresses } from "./webhook-addresses";

export const updateWebhookProcedure = adminProcedure
  .input(updateWebhookInput(webhookAddresses.allowTargets))
  .mutation(async ({ ctx, input }) => void (await updateWebhook(ctx.domain, ctx.member.companyId, input.id, input.changes, webhookAddresses)));
