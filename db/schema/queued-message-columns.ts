import { bigint, text } from "drizzle-orm/pg-core";
import { time } from "./columns";
import { webhooks } from "./webhooks";

/**
 * A waiting message's key in the partitioned `webhook_messages`, and its
 * webhook: the columns of every narrow table that lists waiting messages (the
 * ready set, the waiting retries, the chains' rows), each row going with its
 * webhook.
 */
export const waitingMessageKeyColumns = () => ({
  messageId: text("message_id").primaryKey(),
  /** The message's partition key, with `message_id` its key in `webhook_messages`. */
  historyAt: time("history_at").notNull(),
  webhookId: text("webhook_id")
    .notNull()
    .references(() => webhooks.id, { onDelete: "cascade" }),
});

/**
 * The columns a message carries while it waits to be sent: in the ready set
 * (`webhook_ready_messages`) and among the retries that are not due yet
 * (`webhook_waiting_retries`), which move a row from one to the other as is.
 */
export const queuedMessageColumns = () => ({
  ...waitingMessageKeyColumns(),
  /** When it falls due (in the ready set: due since, claimable once passed; while leased, the lease's end). */
  dueAt: time("due_at").notNull(),
  /** The message's `seq`: among messages due at the same time, the older first. */
  seq: bigint("seq", { mode: "bigint" }).notNull(),
});
