import { z } from "zod";

export const setWebhookEnabledInput = z.object({ id: z.string().min(1), enabled: z.boolean() });
