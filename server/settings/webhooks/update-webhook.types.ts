import { z } from "zod";
import { webhookChangesSchema } from "@/server/webhooks/settings-schema";

export const updateWebhookInput = (allowTargets: readonly string[]) => z.object({ id: z.string().min(1), changes: webhookChangesSchema(allowTargets) });
