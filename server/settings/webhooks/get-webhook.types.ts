import { z } from "zod";
import { recordId } from "@/server/settings/inputs.types";
import { webhookView } from "./webhook-view.types";

export const webhookIdInput = z.object({ id: recordId });

export const getWebhookOutput = z.object({ webhook: webhookView });
