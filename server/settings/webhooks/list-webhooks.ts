import { listWebhooks } from "@/server/webhooks/manage";
import { maxWebhooksPerCompany } from "@/server/webhooks/settings-schema";
import { signedInProcedure } from "../trpc";
import { listWebhooksOutput } from "./list-webhooks.types";
import { viewWebhooks } from "./webhook-view";

export const listWebhooksProcedure = signedInProcedure.output(listWebhooksOutput).query(async ({ ctx }) => {
  const rows = await listWebhooks(ctx.domain, ctx.member.companyId);
  return { webhooks: await viewWebhooks(ctx.sql, ctx.member, rows, ctx.domain.clock.now()), limit: maxWebhooksPerCompany };
});
