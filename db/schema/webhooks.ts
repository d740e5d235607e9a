import { boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import type { CandidateStatus, Recommendation } from "./candidate-values";
import { createdAt, idColumn, time } from "./columns";
import { companies } from "./companies";
import type { EventType } from "./events";

/** The stored shape of a webhook's conditions (checked by server/webhooks/delivery/conditions.ts). */
export type WebhookConditions = { statusTo?: CandidateStatus[]; minScore?: number; recommendations?: Recommendation[] };

/** A customer address that receives signed event messages. */
export const webhooks = pgTable(
  "webhooks",
  {
    id: idColumn(),
    companyId: text("company_id")
      .notNull()
      .references(() => companies.id),
    url: text("url").notNull(),
    /** An admin's label and note, shown wherever the webhook is (to members too, whose view masks the address). */
    name: text("name"),
    description: text("description"),
    eventTypes: jsonb("event_types").$type<EventType[]>().notNull(),
    /** True: every interview, including ones created later. False: only `interviewIds`. */
    allInterviews: boolean("all_interviews").notNull().default(true),
    interviewIds: jsonb("interview_ids").$type<string[]>().notNull().default([]),
    /** At most this many messages a second (1 to 1,000), set by an admin for a receiver that cannot take bursts; null: no limit. */
    rateLimitPerSecond: integer("rate_limit_per_second"),
    enabled: boolean("enabled").notNull().default(true),
    disabledAt: time("disabled_at"),
    disabledReason: text("disabled_reason"),
    /** Signing secrets, encrypted (server/webhooks/delivery/secrets.ts). The previous one signs too until it expires. */
    secretCiphertext: text("secret_ciphertext").notNull(),
    previousSecretCiphertext: text("previous_secret_ciphertext"),
    previousSecretExpiresAt: time("previous_secret_expires_at"),
    /** The admin's own headers sent with every message, names and values encrypted as one list (server/webhooks/delivery/custom-headers.ts); null: none. */
    customHeadersCiphertext: text("custom_headers_ciphertext"),
    /** What narrows the events sent beyond types and interviews (server/webhooks/delivery/conditions.ts); null: none. */
    conditions: jsonb("conditions").$type<WebhookConditions>(),
    /** Start of the current run of failures (null after a success); drives the alert and the 3-day cut-off. */
    failingSince: time("failing_since"),
    failureAlertedAt: time("failure_alerted_at"),
    lastSuccessAt: time("last_success_at"),
    lastFailureAt: time("last_failure_at"),
    createdAt: createdAt(),
    updatedAt: time("updated_at").notNull().defaultNow(),
  },
  (table) => [index("webhooks_company_idx").on(table.companyId, table.createdAt)],
);
