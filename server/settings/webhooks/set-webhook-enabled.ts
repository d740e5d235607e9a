import { setWebhookEnabled } from "@/server/webhooks/admin/set-webhook-enabled";
import { adminProcedure } from "../trpc";
import { setWebhookEnabledInput, setWebhookEnabledOutput } from "./set-webhook-enabled.types";

/** Turning a webhook off fails its waiting messages; turning it on starts afresh. */
export const setWebhookEnabledProcedure = adminProcedure
  .input(setWebhookEnabledInput)
  .output(setWebhookEnabledOutput)
  .mutation(({ ctx, input }) => setWebhookEnabled(ctx.domain, ctx.member.companyId, input.id, input.enabled, ctx.member.name));
