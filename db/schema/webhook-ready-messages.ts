import { index, pgTable } from "drizzle-orm/pg-core";
import { time } from "./columns";
import { queuedMessageColumns } from "./queued-message-columns";

/**
 * The ready set: the chain heads (`webhook_messages.held` false) that are due
 * now, or leased by the dispatcher that claimed them. Small and unpartitioned,
 * so the claim's cost is the work due now, not the history's days: a row
 * enters when its message becomes due, is leased by a claim (its `due_at`
 * moves to the lease's end, so a dead worker's message falls due again by
 * itself), and leaves when its outcome is recorded. A retry waits apart in
 * `webhook_waiting_retries` until it falls due. Its autovacuum runs as for a
 * hot queue (set in the baseline migration): every row is written two or three times within
 * seconds of entering.
 */
export const webhookReadyMessages = pgTable(
  "webhook_ready_messages",
  {
    ...queuedMessageColumns(),
    /** When the lease under way began (null: not claimed yet); recording an outcome needs the same value. */
    leasedAt: time("leased_at"),
  },
  (table) => [
    // The claim reads each webhook's oldest due rows through this, and skips a webhook that has no room after one look.
    index("webhook_ready_messages_claim_idx").on(table.webhookId, table.dueAt, table.seq),
    // The first and last day of the ready messages, which the claim reports for the next claim to look in (log-days.ts).
    index("webhook_ready_messages_history_idx").on(table.historyAt),
  ],
);
