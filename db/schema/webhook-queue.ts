import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { jsonText, time } from "./columns";
import type { EventType } from "./event-types";
import type { StatusChange } from "./events";
import { webhooks } from "./webhooks";

/** Where a queued message stands (docs/webhook-engine.md has every transition). */
export const queueStates = ["held", "ready", "running"] as const;
export type QueueState = (typeof queueStates)[number];

/**
 * The delivery engine's state: one row per message that has not ended, and
 * nothing else. A message is `held` while an earlier message of its
 * (webhook, candidate) chain is queued, `ready` once it heads its chain (due
 * at `due_at`), and `running` while a dispatcher holds its lease. The row is
 * deleted when the message ends (delivered, failed for good, or its webhook
 * turned off); the partitioned log (`webhook_messages`, `webhook_attempts`)
 * keeps what was sent and what came back, and is never read to decide what
 * to send.
 *
 * Small and unpartitioned: its size is the work waiting, not the history.
 */
export const webhookQueue = pgTable(
  "webhook_queue",
  {
    /** The message's key in the log, with `history_at` (its partition key). */
    messageId: text("message_id").primaryKey(),
    historyAt: time("history_at").notNull(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    /** The chain; null for a sample, which belongs to no chain. */
    candidateId: text("candidate_id"),
    /**
     * What the message sends that never changes, copied from the log and the
     * history as it is queued, so that the claim reads neither (the log and
     * the events are partitioned by day, and a statement that reads them
     * costs with every day kept): the event (null for a sample, or for a
     * resend whose event is no longer kept: nothing to send), or a sample's
     * body. The candidate's data is read as each try is made (spec 6.2).
     */
    companyId: text("company_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").$type<EventType>().notNull(),
    eventAt: time("event_at"),
    eventChange: jsonb("event_change").$type<StatusChange>(),
    /** A sample's body, as the log's `sample_body` holds it (a JSON string). */
    sampleBody: jsonText("sample_body"),
    /** The message's place in its chain and among its webhook's due messages: the log's `seq`, given as it is queued. */
    position: bigint("position", { mode: "bigint" }).notNull(),
    state: text("state", { enum: queueStates }).notNull(),
    /** `ready`: when it may be sent (a retry's later time, made due in place). `running`: when the lease runs out, after which it may be claimed again. */
    dueAt: time("due_at").notNull(),
    /** `running`: when the lease began; recording the outcome names it, so only the lease's holder can. */
    leasedAt: time("leased_at"),
    /** Tries made so far (a try our side could not make counts too). */
    attemptCount: integer("attempt_count").notNull().default(0),
    /** Why our side could not make the last try (a secret that cannot be decrypted, a body that cannot be built); null after a real try. */
    lastError: text("last_error"),
    queuedAt: time("queued_at").notNull(),
  },
  (table) => [
    check("webhook_queue_state_check", sql`${table.state} in ('held', 'ready', 'running')`),
    // A lease is what makes a message running, and only a running message has one.
    check("webhook_queue_lease_check", sql`(${table.state} = 'running') = (${table.leasedAt} is not null)`),
    // The claim: each webhook's sendable rows, oldest due first.
    index("webhook_queue_claim_idx").on(table.webhookId, table.dueAt, table.position).where(sql`${table.state} <> 'held'`),
    // A chain's next message once its head ends.
    index("webhook_queue_chain_idx").on(table.webhookId, table.candidateId, table.position).where(sql`${table.candidateId} is not null`),
    // At most one message of a chain is ready or running: the database holds the rule the chain lock keeps (queue.ts).
    uniqueIndex("webhook_queue_one_head_idx").on(table.webhookId, table.candidateId).where(sql`${table.state} <> 'held' and ${table.candidateId} is not null`),
  ],
);
