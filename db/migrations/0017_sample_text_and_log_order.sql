-- A sample's body is kept as the exact text to send: jsonb reorders an
-- object's keys (shortest first), so samples went out in another order than
-- real deliveries of the same type. A new text column, filled from the old
-- one, then put in its place: changing the column's type would rewrite every
-- day of the log; adding a column without a default, dropping one and
-- renaming are changes to the catalog only, and the copy touches samples
-- alone (those sent before this keep the order jsonb gave them).
ALTER TABLE "webhook_messages" ADD COLUMN "sample_body_text" text;--> statement-breakpoint
UPDATE "webhook_messages" SET "sample_body_text" = "sample_body"::text WHERE "sample_body" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_messages" DROP COLUMN "sample_body";--> statement-breakpoint
ALTER TABLE "webhook_messages" RENAME COLUMN "sample_body_text" TO "sample_body";--> statement-breakpoint
-- The log lists messages newest first; messages created at the same moment
-- (a backfill, a fan-out's batch) in the order they were added, which is the
-- history's order: seq, not the random id, breaks the tie.
DROP INDEX "webhook_messages_log_idx";--> statement-breakpoint
CREATE INDEX "webhook_messages_log_idx" ON "webhook_messages" USING btree ("webhook_id","created_at","seq");
