import { z } from "zod";
import { recordId } from "@/server/settings/inputs.types";
import { attemptView, messageView } from "@/server/webhooks/views/message-view.types";

export const getMessageInput = z.object({ messageId: recordId });

export const getMessageOutput = z.object({ message: messageView, attempts: z.array(attemptView) });
