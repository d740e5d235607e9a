import { env } from "@/server/env";
import { updateWebhook } from "@/server/webhooks/manage";
import { adminProcedure } from "../trpc";
import { updateWebhookInput } from "./update-webhook.types";

export const updateWebhookProcedure = adminProcedure
  .input(updateWebhookInput(env.WEBHOOK_ALLOW_TARGETS))
  .mutation(async ({ ctx, input }) => void (await updateWebhook(ctx.domain, ctx.member.companyId, input.id, input.changes)));
