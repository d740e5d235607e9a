import { z } from "zod";
import { webhookIdInput } from "@/server/settings/inputs.types";
import { customHeadersWithValues } from "./custom-headers.types";

export const revealWebhookHeadersInput = webhookIdInput;

export const revealWebhookHeadersOutput = z.object({ customHeaders: customHeadersWithValues });
