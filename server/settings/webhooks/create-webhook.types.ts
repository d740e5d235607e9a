import { z } from "zod";
import { webhookSettingsSchema } from "@/server/webhooks/admin/settings-schema";
import { addressWarning } from "@/server/webhooks/views/webhook-view.types";
import { customHeadersWithValues } from "./custom-headers.types";

/** The addresses allowed depend on the server's WEBHOOK_ALLOW_TARGETS. */
export const createWebhookInput = (allowTargets: readonly string[]) => webhookSettingsSchema(allowTargets);

/** The signing secret and the custom headers, shown straight after creation (admins can reveal them again later). */
export const createWebhookOutput = z.object({ id: z.string(), secret: z.string(), customHeaders: customHeadersWithValues, addressWarning });
