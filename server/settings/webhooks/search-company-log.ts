import { companyMessagesQuery, companySearchLimit } from "@/server/webhooks/views/delivery-log";
import { viewMessage } from "@/server/webhooks/views/message-view";
import { maskAddress } from "@/server/webhooks/views/webhook-view";
import { signedInProcedure } from "../trpc";
import { searchCompanyLogInput, searchCompanyLogOutput } from "./search-company-log.types";

/** "Find this event id" across every webhook of the member's company; members see what they see in a webhook's own log. */
export const searchCompanyLogProcedure = signedInProcedure
  .input(searchCompanyLogInput)
  .output(searchCompanyLogOutput)
  .query(async ({ ctx, input }) => {
    const rows = await companyMessagesQuery(ctx.sql, ctx.member.companyId, input.search, ctx.domain.clock.now());
    return {
      messages: rows.map((row) => ({
        ...viewMessage(row),
        webhook: { id: row.webhook_id, name: row.webhook_name, address: ctx.member.role === "admin" ? row.webhook_url : maskAddress(row.webhook_url) },
      })),
      limited: rows.length >= companySearchLimit,
    };
  });
