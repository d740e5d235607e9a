import { z } from "zod";
import { webhookView } from "./webhook-view.types";

export const listWebhooksOutput = z.object({ webhooks: z.array(webhookView), limit: z.number() });
