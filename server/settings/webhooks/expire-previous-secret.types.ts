import { webhookIdInput } from "@/server/settings/inputs.types";

export const expirePreviousSecretInput = webhookIdInput;
