import { sql } from "drizzle-orm";
import { bigint, bigserial, index, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { candidates } from "./candidates";
import { companyId, partitionedIdColumn, time } from "./columns";
import { type EventType, eventTypes, oncePerAttemptEventTypes } from "./event-types";

export { type EventType, eventTypes, oncePerAttemptEventTypes };

export const changedByTypes = ["team", "ai", "system", "candidate"] as const;
export type ChangedBy = { type: (typeof changedByTypes)[number]; name: string };
export type StatusChange = { from: string; to: string; by: ChangedBy };

/**
 * The change history. Rows are only appended, by the domain write path, in the
 * same transaction as the change they record.
 *
 * Readers page by (tx_id, seq): `tx_id` is the writing transaction's id and a
 * reader only returns rows of transactions older than every transaction still
 * running, so an event committed late can never land behind a cursor.
 *
 * Partitioned by day of `created_at` (hand-written SQL: the baseline
 * migration and db/partitions.ts); retention drops whole days.
 */
export const events = pgTable(
  "events",
  {
    id: partitionedIdColumn(),
    companyId: companyId(),
    candidateId: text("candidate_id")
      .notNull()
      .references(() => candidates.id),
    interviewId: text("interview_id").notNull(),
    type: text("type", { enum: eventTypes }).notNull(),
    /** Frozen at the time of a status change; null for the other types. */
    change: jsonb("change").$type<StatusChange>(),
    createdAt: time("created_at").notNull(),
    txId: bigint("tx_id", { mode: "bigint" }).notNull().default(sql`(pg_current_xact_id()::text)::bigint`),
    seq: bigserial("seq", { mode: "bigint" }).notNull(),
  },
  (table) => [
    index("events_feed_idx").on(table.companyId, table.txId, table.seq),
    index("events_interview_feed_idx").on(table.companyId, table.interviewId, table.txId, table.seq),
    index("events_created_idx").on(table.createdAt),
    primaryKey({ columns: [table.id, table.createdAt] }),
  ],
);

/**
 * submitted, scored and ready happen at most once per attempt. A unique index
 * on the partitioned history could only hold within one day, so the history's
 * trigger `events_once_per_attempt` (the baseline migration) writes one row here
 * per such event, at the end of the statement that inserts it (one set-based
 * insert per statement), and a second event of the same type for the same
 * candidate fails that statement on this key (a unique violation, as before). Rows
 * stay after their event's day is dropped: the rule holds for ever.
 */
export const eventsOncePerAttempt = pgTable(
  "events_once_per_attempt",
  {
    candidateId: text("candidate_id").notNull(),
    type: text("type", { enum: oncePerAttemptEventTypes }).notNull(),
    /** The event that took the slot: writing the same event again (moving it between partitions) is no second one. */
    eventId: text("event_id").notNull(),
  },
  (table) => [primaryKey({ name: "events_once_per_attempt_key", columns: [table.candidateId, table.type] })],
);
