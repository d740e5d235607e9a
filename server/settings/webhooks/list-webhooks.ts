import { listWebhooks } from "@/server/webhooks/admin/find-webhook";
import { maxWebhooksPerCompany } from "@/server/webhooks/admin/settings-schema";
import { viewWebhooks } from "@/server/webhooks/views/webhook-view";
import { signedInProcedure } from "../trpc";
import { listWebhooksOutput } from "./list-webhooks.types";

export const listWebhooksProcedure = signedInProcedure.output(listWebhooksOutput).query(async ({ ctx }) => {
  const rows = await listWebhooks(ctx.domain, ctx.member.companyId);
  return { webhooks: await viewWebhooks(ctx.sql, ctx.member, rows, ctx.domain.clock.now()), limit: maxWebhooksPerCompany };
});
