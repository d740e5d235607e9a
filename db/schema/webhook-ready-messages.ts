import { bigint, index, pgTable, text } from "drizzle-orm/pg-core";
import { time } from "./columns";
import { webhooks } from "./webhooks";

/**
 * The ready set: the chain heads (`webhook_messages.held` false) that are due
 * now, or leased by the dispatcher that claimed them. Small and unpartitioned,
 * so the claim's cost is the work due now, not the history's days: a row
 * enters when its message becomes due, is leased by a claim (its `due_at`
 * moves to the lease's end, so a dead worker's message falls due again by
 * itself), and leaves when its outcome is recorded. A retry waits apart in
 * `webhook_waiting_retries` until it falls due. Its autovacuum runs as for a
 * hot queue (migration 0018): every row is written two or three times within
 * seconds of entering.
 */
export const webhookReadyMessages = pgTable(
  "webhook_ready_messages",
  {
    messageId: text("message_id").primaryKey(),
    /** The message's partition key, with `message_id` its key in `webhook_messages`. */
    historyAt: time("history_at").notNull(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    /** Due since (claimable once it has passed); while leased, the lease's end. */
    dueAt: time("due_at").notNull(),
    /** The message's `seq`: among messages due at the same time, the older first. */
    seq: bigint("seq", { mode: "bigint" }).notNull(),
    /** When the lease under way began (null: not claimed yet); recording an outcome needs the same value. */
    leasedAt: time("leased_at"),
  },
  // The claim reads each webhook's oldest due rows through this, and skips a webhook that has no room after one look.
  (table) => [index("webhook_ready_messages_claim_idx").on(table.webhookId, table.dueAt, table.seq)],
);
