import { z } from "zod";
import { recordId } from "@/server/settings/inputs.types";
import { webhookChangesSchema } from "@/server/webhooks/settings-schema";
import { addressWarning } from "./webhook-view.types";

export const updateWebhookInput = (allowTargets: readonly string[]) => z.object({ id: recordId, changes: webhookChangesSchema(allowTargets) });

export const updateWebhookOutput = z.object({ addressWarning });
