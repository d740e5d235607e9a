import { z } from "zod";
import { recordId } from "@/server/settings/inputs.types";
import { type ChartRange, chartRanges } from "@/server/webhooks/views/chart-ranges";

export const deliveryChartInput = z.object({ id: recordId, range: z.enum(Object.keys(chartRanges) as [ChartRange, ...ChartRange[]]) });

export const deliveryChartOutput = z.object({
  /** Tries per hour that succeeded and failed. */
  buckets: z.array(z.object({ hour: z.string(), succeeded: z.number(), failed: z.number() })),
});
