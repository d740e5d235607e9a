import { z } from "zod";
import { webhookView } from "./webhook-view.types";

export const webhookIdInput = z.object({ id: z.string().min(1) });

export const getWebhookOutput = z.object({ webhook: webhookView });
