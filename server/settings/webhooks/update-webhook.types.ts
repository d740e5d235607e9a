import { z } from "zod";
import { recordId } from "@/server/settings/inputs.types";
import { webhookChangesSchema } from "@/server/webhooks/admin/settings-schema";
import { addressWarning } from "@/server/webhooks/views/webhook-view.types";
import { customHeadersWithValues } from "./custom-headers.types";

export const updateWebhookInput = (allowTargets: readonly string[]) => z.object({ id: recordId, changes: webhookChangesSchema(allowTargets) });

/** `customHeaders`: the saved list with values when it changed (shown once), null otherwise. */
export const updateWebhookOutput = z.object({ customHeaders: customHeadersWithValues.nullable(), addressWarning });
