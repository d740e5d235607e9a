import { index, pgTable, text } from "drizzle-orm/pg-core";
import { waitingMessageKeyColumns } from "./queued-message-columns";

/**
 * Where each (webhook, candidate) chain's waiting messages are: one row per
 * pending message of a chain, its key in the partitioned `webhook_messages`.
 * Small and unpartitioned, so finding a chain's messages is one index probe,
 * where an index of the log would be one per day kept (about 40): the
 * fan-out and the readying of chains look a chain up here, then read and lock
 * its messages in their one day each (messages.ts).
 *
 * A row is written with its message, in the same statement (the one way a
 * message enters the log), and deleted with the statement that ends the
 * message (its outcome recorded, or its webhook turned off). So every
 * waiting message of a chain has its row; a row whose message has ended
 * otherwise is read past (the message's status is checked where it is read).
 * Its autovacuum runs as for a hot queue (set in the baseline migration).
 */
export const webhookChainMessages = pgTable(
  "webhook_chain_messages",
  { ...waitingMessageKeyColumns(), candidateId: text("candidate_id").notNull() },
  (table) => [index("webhook_chain_messages_chain_idx").on(table.webhookId, table.candidateId)],
);
