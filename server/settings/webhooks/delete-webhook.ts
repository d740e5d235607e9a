import { deleteWebhook } from "@/server/webhooks/manage";
import { adminProcedure } from "../trpc";
import { webhookIdInput } from "./get-webhook.types";

export const deleteWebhookProcedure = adminProcedure
  .input(webhookIdInput)
  .mutation(async ({ ctx, input }) => void (await deleteWebhook(ctx.domain, ctx.member.companyId, input.id)));
