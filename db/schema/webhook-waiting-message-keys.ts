import { sql } from "drizzle-orm";
import { pgView, text } from "drizzle-orm/pg-core";
import { time } from "./columns";

/**
 * Every waiting (`pending`) message's key in the partitioned
 * `webhook_messages`, and its webhook: the union of the narrow tables that
 * list them. A message of a chain has its chain's row
 * (`webhook_chain_messages`); a message of no chain (a sample) is in the
 * ready set or among the waiting retries, as every chain head is. So "which
 * messages wait" is read from tables the size of the work waiting, never
 * from the log's days (the log has no index of pending messages, so that
 * recording an outcome can update a message in place).
 *
 * A chain's row outlives its message only when something other than the
 * recording or the failure policy ends it (SQL by hand; the maintenance run
 * removes such rows): read a message's status where it is read.
 */
export const webhookWaitingMessageKeys = pgView("webhook_waiting_message_keys", {
  messageId: text("message_id").notNull(),
  historyAt: time("history_at").notNull(),
  webhookId: text("webhook_id").notNull(),
}).as(sql`
  select message_id, history_at, webhook_id from webhook_chain_messages
  union select message_id, history_at, webhook_id from webhook_ready_messages
  union select message_id, history_at, webhook_id from webhook_waiting_retries`);
