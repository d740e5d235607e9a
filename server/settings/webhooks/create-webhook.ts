import { createWebhook } from "@/server/webhooks/manage";
import { webhookSettingsSchema } from "@/server/webhooks/settings-schema";
import { adminProcedure } from "../trpc";
import { createWebhookOutput } from "./create-webhook.types";
import { webhookAddresses } from "./webhook-addresses";

export const createWebhookProcedure = adminProcedure
  .input(webhookSettingsSchema(webhookAddresses.allowTargets))
  .output(createWebhookOutput)
  .mutation(({ ctx, input }) => createWebhook(ctx.domain, ctx.member.companyId, input, webhookAddresses));
