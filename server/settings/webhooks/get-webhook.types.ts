import { z } from "zod";
import { webhookIdInput } from "@/server/settings/inputs.types";
import { webhookView } from "@/server/webhooks/views/webhook-view.types";

export const getWebhookInput = webhookIdInput;

export const getWebhookOutput = z.object({ webhook: webhookView });
