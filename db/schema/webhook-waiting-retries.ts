import { bigint, index, pgTable, text } from "drizzle-orm/pg-core";
import { time } from "./columns";
import { webhooks } from "./webhooks";

/**
 * Chain heads whose next try is in the future (a retry after a failed one):
 * they wait here, apart from the ready set, and the dispatchers move them to
 * `webhook_ready_messages` once they fall due (every second).
 */
export const webhookWaitingRetries = pgTable(
  "webhook_waiting_retries",
  {
    messageId: text("message_id").primaryKey(),
    historyAt: time("history_at").notNull(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    dueAt: time("due_at").notNull(),
    seq: bigint("seq", { mode: "bigint" }).notNull(),
  },
  (table) => [index("webhook_waiting_retries_due_idx").on(table.dueAt), index("webhook_waiting_retries_webhook_idx").on(table.webhookId)],
);
