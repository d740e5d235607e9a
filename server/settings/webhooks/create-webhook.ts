import { createWebhook } from "@/server/webhooks/admin/webhook-settings";
import { adminProcedure } from "../trpc";
import { createWebhookInput, createWebhookOutput } from "./create-webhook.types";
import { webhookAddresses } from "./webhook-addresses";

export const createWebhookProcedure = adminProcedure
  .input(createWebhookInput(webhookAddresses.allowTargets))
  .output(createWebhookOutput)
  .mutation(({ ctx, input }) => createWebhook(ctx.domain, ctx.member.companyId, input, webhookAddresses));
