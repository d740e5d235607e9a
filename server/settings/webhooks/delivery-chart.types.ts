import { z } from "zod";

export const deliveryChartInput = z.object({ id: z.string().min(1), range: z.enum(["24h", "7d"]) });

export const deliveryChartOutput = z.object({
  buckets: z.array(z.object({ hour: z.string(), succeeded: z.number(), failed: z.number(), waiting: z.number() })),
});
