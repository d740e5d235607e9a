import { z } from "zod";
import { recordId } from "@/server/settings/inputs.types";

export const setWebhookEnabledInput = z.object({ id: recordId, enabled: z.boolean() });

/** How many waiting messages turning off marked failed (0 when turning on). */
export const setWebhookEnabledOutput = z.object({ markedFailed: z.number() });
