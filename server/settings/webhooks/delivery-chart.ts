import { deliveryChart } from "@/server/webhooks/delivery-chart";
import { getWebhook } from "@/server/webhooks/manage";
import { memberProcedure } from "../trpc";
import { deliveryChartInput, deliveryChartOutput } from "./delivery-chart.types";

export const deliveryChartProcedure = memberProcedure
  .input(deliveryChartInput)
  .output(deliveryChartOutput)
  .query(async ({ ctx, input }) => {
    await getWebhook(ctx.ctx, ctx.member.companyId, input.id);
    return { buckets: await deliveryChart(ctx.sql, ctx.member.companyId, input.id, input.range, ctx.ctx.clock.now()) };
  });
