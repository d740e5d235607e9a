import { revealWebhookSecret } from "@/server/webhooks/manage";
import { adminProcedure } from "../trpc";
import { webhookIdInput } from "./get-webhook.types";
import { revealWebhookSecretOutput } from "./webhook-secret.types";

/** A mutation, not a query: the secret only ever travels in a same-origin POST's response. */
export const revealWebhookSecretProcedure = adminProcedure
  .input(webhookIdInput)
  .output(revealWebhookSecretOutput)
  .mutation(async ({ ctx, input }) => ({ secret: await revealWebhookSecret(ctx.domain, ctx.member.companyId, input.id) }));
