import { deleteWebhook } from "@/server/webhooks/admin/webhook-settings";
import { adminProcedure } from "../trpc";
import { deleteWebhookInput } from "./delete-webhook.types";

export const deleteWebhookProcedure = adminProcedure
  .input(deleteWebhookInput)
  .mutation(async ({ ctx, input }) => void (await deleteWebhook(ctx.domain, ctx.member.companyId, input.id)));
