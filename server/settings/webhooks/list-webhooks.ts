import { listWebhooks } from "@/server/webhooks/manage";
import { maxWebhooksPerCompany } from "@/server/webhooks/settings-schema";
import { memberProcedure } from "../trpc";
import { listWebhooksOutput } from "./list-webhooks.types";
import { viewWebhooks } from "./webhook-view";

export const listWebhooksProcedure = memberProcedure.output(listWebhooksOutput).query(async ({ ctx }) => {
  const rows = await listWebhooks(ctx.ctx, ctx.member.companyId);
  return { webhooks: await viewWebhooks(ctx.sql, ctx.member, rows, ctx.ctx.clock.now()), limit: maxWebhooksPerCompany };
});
