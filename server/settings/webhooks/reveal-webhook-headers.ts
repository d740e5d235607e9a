import { revealWebhookHeaders } from "@/server/webhooks/admin/webhook-settings";
import { adminProcedure } from "../trpc";
import { revealWebhookHeadersInput, revealWebhookHeadersOutput } from "./reveal-webhook-headers.types";

/** A mutation, like revealing the secret: the values only ever travel in a same-origin POST's response. */
export const revealWebhookHeadersProcedure = adminProcedure
  .input(revealWebhookHeadersInput)
  .output(revealWebhookHeadersOutput)
  .mutation(async ({ ctx, input }) => ({ customHeaders: await revealWebhookHeaders(ctx.domain, ctx.member.companyId, input.id) }));
