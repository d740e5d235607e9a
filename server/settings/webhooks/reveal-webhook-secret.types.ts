import { z } from "zod";
import { webhookIdInput } from "@/server/settings/inputs.types";

export const revealWebhookSecretInput = webhookIdInput;

export const revealWebhookSecretOutput = z.object({ secret: z.string() });
