import { z } from "zod";

export const setWebhookEnabledInput = z.object({ id: z.string().min(1), enabled: z.boolean() });

/** How many waiting messages turning off marked failed (0 when turning on). */
export const setWebhookEnabledOutput = z.object({ markedFailed: z.number() });
