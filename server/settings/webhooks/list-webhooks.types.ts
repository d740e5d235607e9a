import { z } from "zod";
import { webhookView } from "@/server/webhooks/views/webhook-view.types";

export const listWebhooksOutput = z.object({ webhooks: z.array(webhookView), limit: z.number() });
