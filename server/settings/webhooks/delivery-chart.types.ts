import { z } from "zod";
import { type ChartRange, chartRanges } from "@/server/webhooks/chart-ranges";

export const deliveryChartInput = z.object({ id: z.string().min(1), range: z.enum(Object.keys(chartRanges) as [ChartRange, ...ChartRange[]]) });

export const deliveryChartOutput = z.object({
  buckets: z.array(z.object({ hour: z.string(), succeeded: z.number(), failed: z.number(), waiting: z.number() })),
});
