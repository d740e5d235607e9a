import { index, pgTable } from "drizzle-orm/pg-core";
import { queuedMessageColumns } from "./queued-message-columns";

/**
 * Chain heads whose next try is in the future (a retry after a failed one):
 * they wait here, apart from the ready set, and the dispatchers move them to
 * `webhook_ready_messages` once they fall due (every second).
 */
export const webhookWaitingRetries = pgTable("webhook_waiting_retries", queuedMessageColumns(), (table) => [
  index("webhook_waiting_retries_due_idx").on(table.dueAt),
  index("webhook_waiting_retries_webhook_idx").on(table.webhookId),
]);
