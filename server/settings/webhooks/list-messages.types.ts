import { z } from "zod";
import { eventTypes } from "@/db/schema";
import { pickedTime, recordId } from "@/server/settings/inputs.types";
import { messageStatus, messageView } from "@/server/webhooks/views/message-view.types";
import { logSearch } from "./log-search.types";

export const listMessagesInput = z.object({
  id: recordId,
  status: messageStatus.optional(),
  eventType: z.enum(eventTypes).optional(),
  search: logSearch.optional(),
  from: pickedTime.optional(),
  to: pickedTime.optional(),
  cursor: z.string().optional(),
  limit: z.number().int().min(1).max(100).default(25),
});

export const listMessagesOutput = z.object({ messages: z.array(messageView), nextCursor: z.string().nullable() });
