import { z } from "zod";
import { webhookChangesSchema } from "@/server/webhooks/settings-schema";
import { addressWarning } from "./create-webhook.types";

export const updateWebhookInput = (allowTargets: readonly string[]) => z.object({ id: z.string().min(1), changes: webhookChangesSchema(allowTargets) });

export const updateWebhookOutput = z.object({ addressWarning });
