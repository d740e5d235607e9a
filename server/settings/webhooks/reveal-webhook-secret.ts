import { revealWebhookSecret } from "@/server/webhooks/admin/webhook-secret";
import { adminProcedure } from "../trpc";
import { revealWebhookSecretInput, revealWebhookSecretOutput } from "./reveal-webhook-secret.types";

/** A mutation, not a query: the secret only ever travels in a same-origin POST's response. */
export const revealWebhookSecretProcedure = adminProcedure
  .input(revealWebhookSecretInput)
  .output(revealWebhookSecretOutput)
  .mutation(async ({ ctx, input }) => ({ secret: await revealWebhookSecret(ctx.domain, ctx.member.companyId, input.id) }));
