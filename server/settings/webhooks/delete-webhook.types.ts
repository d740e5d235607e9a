import { webhookIdInput } from "@/server/settings/inputs.types";

export const deleteWebhookInput = webhookIdInput;
