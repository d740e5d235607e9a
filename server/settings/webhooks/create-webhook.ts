import { env } from "@/server/env";
import { createWebhook } from "@/server/webhooks/manage";
import { webhookSettingsSchema } from "@/server/webhooks/settings-schema";
import { adminProcedure } from "../trpc";
import { createWebhookOutput } from "./create-webhook.types";

export const createWebhookProcedure = adminProcedure
  .input(webhookSettingsSchema(env.WEBHOOK_ALLOW_TARGETS))
  .output(createWebhookOutput)
  .mutation(({ ctx, input }) => createWebhook(ctx.domain, ctx.member.companyId, input));
