import { pgTable, text } from "drizzle-orm/pg-core";
import { time } from "./columns";
import { webhooks } from "./webhooks";

/**
 * Where each rate-limited webhook's sending stands (server/webhooks/delivery/claim.ts):
 * `sent_until` is the moment up to which the messages claimed so far use up
 * its rate (a GCRA "theoretical arrival time"). Every claim, from any worker
 * process, takes and moves it under the row's lock, so the limit holds across
 * processes.
 */
export const webhookSendPaces = pgTable("webhook_send_paces", {
  webhookId: text("webhook_id")
    .primaryKey()
    .references(() => webhooks.id, { onDelete: "cascade" }),
  sentUntil: time("sent_until").notNull(),
});
