import { z } from "zod";
import { webhookIdInput } from "@/server/settings/inputs.types";

export const rotateWebhookSecretInput = webhookIdInput;

/** The new secret, and until when the old one keeps signing alongside it. */
export const rotateWebhookSecretOutput = z.object({ secret: z.string(), previousValidUntil: z.string().nullable() });
