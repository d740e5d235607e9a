import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { companyId, createdAt, idColumn, time } from "./columns";

/** Every email the product sends is recorded here, whether or not SMTP is configured. */
export const emails = pgTable(
  "emails",
  {
    id: idColumn(),
    companyId: companyId(),
    kind: text("kind").notNull(),
    recipients: jsonb("recipients").$type<string[]>().notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
    sentAt: time("sent_at"),
    /** Until when a run of the sending job holds the email (server/notifications/email.ts); null when none does. */
    claimedUntil: time("claimed_until"),
    error: text("error"),
  },
  (table) => [index("emails_company_idx").on(table.companyId, table.createdAt)],
);
