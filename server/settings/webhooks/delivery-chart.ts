import { assertOwnsWebhook } from "@/server/webhooks/admin/find-webhook";
import { deliveryChart } from "@/server/webhooks/views/delivery-chart";
import { signedInProcedure } from "../trpc";
import { deliveryChartInput, deliveryChartOutput } from "./delivery-chart.types";

export const deliveryChartProcedure = signedInProcedure
  .input(deliveryChartInput)
  .output(deliveryChartOutput)
  .query(async ({ ctx, input }) => {
    await assertOwnsWebhook(ctx.domain, ctx.member.companyId, input.id);
    return { buckets: await deliveryChart(ctx.sql, ctx.member.companyId, input.id, input.range, ctx.domain.clock.now()) };
  });
