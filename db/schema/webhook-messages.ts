import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, jsonText, partitionedIdColumn, time } from "./columns";
import type { EventType } from "./events";
import { messageStatuses } from "./message-statuses";
import { webhooks } from "./webhooks";

export { type MessageStatus, messageStatuses } from "./message-statuses";

/** Why a message exists: an event, a resend from the log, or a sample asked for in the settings. */
export const messageOrigins = ["event", "resend", "sample"] as const;
export type MessageOrigin = (typeof messageOrigins)[number];

/**
 * The log of one event to one webhook: what it is, and (with its attempts)
 * what became of it. Written when the message is queued and at each outcome;
 * where a waiting message stands is its row in `webhook_queue`.
 *
 * Partitioned by day of `history_at` (the baseline migration, db/partitions.ts), and
 * its attempts with it: every message of one event shares its event's day,
 * so "one message per webhook and event" is a unique index with the day in it.
 */
export const webhookMessages = pgTable(
  "webhook_messages",
  {
    id: partitionedIdColumn(),
    companyId: text("company_id").notNull(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    origin: text("origin", { enum: messageOrigins }).notNull(),
    /** The event's id; a sample has its own id (it is no event of the history). */
    eventId: text("event_id").notNull(),
    eventType: text("event_type").$type<EventType>().notNull(),
    /** Ordering chain; null for samples, which belong to no real candidate. */
    candidateId: text("candidate_id"),
    /** The event's place in the history (transaction, then sequence). */
    eventTxId: bigint("event_tx_id", { mode: "bigint" }),
    eventSeq: bigint("event_seq", { mode: "bigint" }),
    isTest: boolean("is_test").notNull().default(false),
    /** A sample's made-up body, the exact JSON text to send. Real events are rendered with the latest data at every attempt. */
    sampleBody: jsonText("sample_body"),
    status: text("status", { enum: messageStatuses }).notNull().default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: time("next_attempt_at").notNull(),
    completedAt: time("completed_at"),
    /** Why our side did not reach the receiver (for the log): why it ended, or why its last try could not be made. */
    failureReason: text("failure_reason"),
    /** The message this one resends (a resend from the log); the original's row links to its latest resend through it. */
    resentFrom: text("resent_from"),
    createdAt: createdAt(),
    /**
     * The partition key, and where the message's 30 days count from: its
     * event's `created_at` for a message of an event (every message of one
     * event lands in the same partition), its own creation for a resend or a
     * sample. Attempts carry a copy, so they live in the same day.
     */
    historyAt: time("history_at").notNull().defaultNow(),
    seq: bigserial("seq", { mode: "bigint" }).notNull(),
  },
  (table) => [
    // text_pattern_ops: the log's search by event-id or candidate-id prefix (`like 'evt\_ab%'`) uses these under any collation.
    primaryKey({ columns: [table.id, table.historyAt] }),
    uniqueIndex("webhook_messages_event_key").on(table.webhookId, table.eventId.op("text_pattern_ops"), table.historyAt).where(sql`${table.origin} = 'event'`),
    index("webhook_messages_other_event_idx").on(table.webhookId, table.eventId.op("text_pattern_ops")).where(sql`${table.origin} <> 'event'`),
    index("webhook_messages_candidate_idx").on(table.webhookId, table.candidateId.op("text_pattern_ops")).where(sql`${table.candidateId} is not null`),
    index("webhook_messages_resent_from_idx").on(table.resentFrom).where(sql`${table.resentFrom} is not null`),
    index("webhook_messages_log_idx").on(table.webhookId, table.createdAt, table.id),
  ],
);
