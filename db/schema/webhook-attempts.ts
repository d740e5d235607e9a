import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, partitionedIdColumn, time } from "./columns";
import { webhooks } from "./webhooks";

export const deliveryErrorClasses = ["timeout", "dns", "connection_refused", "tls", "blocked_address", "redirect", "http_status", "connection"] as const;
export type DeliveryErrorClass = (typeof deliveryErrorClasses)[number];

/**
 * One try of a message: what was sent and what the address answered (bounded
 * excerpts). Partitioned like its message, by the message's `history_at`, so
 * a day of attempts is dropped with its day of messages. There is no foreign
 * key to the message (PostgreSQL would check every attempt partition whenever
 * a day of messages is detached): attempts go with their message's partition,
 * and with their webhook (the key below).
 */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: partitionedIdColumn(),
    messageId: text("message_id").notNull(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    url: text("url").notNull(),
    startedAt: time("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    /** The headers sent; the signature may show, the secret never does. */
    requestHeaders: jsonb("request_headers").$type<Record<string, string>>().notNull(),
    /** The exact body sent, up to its first 64 KiB (admins only; null for attempts recorded before bodies were kept). */
    requestBody: text("request_body"),
    /** The body's full size in bytes, so a cut body says so. */
    requestBodyBytes: integer("request_body_bytes"),
    responseStatus: integer("response_status"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    responseBody: text("response_body"),
    succeeded: boolean("succeeded").notNull(),
    errorClass: text("error_class", { enum: deliveryErrorClasses }),
    errorMessage: text("error_message"),
    createdAt: createdAt(),
    /** The message's `history_at`: the partition key. */
    historyAt: time("history_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.id, table.historyAt] }),
    index("webhook_attempts_message_idx").on(table.messageId, table.attempt),
    index("webhook_attempts_webhook_idx").on(table.webhookId, table.startedAt),
  ],
);
