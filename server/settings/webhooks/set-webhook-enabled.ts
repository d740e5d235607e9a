import { setWebhookEnabled } from "@/server/webhooks/manage";
import { adminProcedure } from "../trpc";
import { setWebhookEnabledInput } from "./set-webhook-enabled.types";

/** Turning a webhook off fails its waiting messages; turning it on starts afresh. */
export const setWebhookEnabledProcedure = adminProcedure
  .input(setWebhookEnabledInput)
  .mutation(async ({ ctx, input }) => void (await setWebhookEnabled(ctx.domain, ctx.member.companyId, input.id, input.enabled, ctx.member.name)));
