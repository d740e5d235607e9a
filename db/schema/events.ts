import { sql } from "drizzle-orm";
import { bigint, bigserial, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { candidates } from "./candidates";
import { companyId, idColumn, time } from "./columns";
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
 */
export const events = pgTable(
  "events",
  {
    id: idColumn(),
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
    // submitted, scored and ready happen at most once per attempt.
    uniqueIndex("events_once_per_attempt_key")
      .on(table.candidateId, table.type)
      .where(sql`${table.type} in (${sql.raw(oncePerAttemptEventTypes.map((type) => `'${type}'`).join(", "))})`),
  ],
);
