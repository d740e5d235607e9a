DROP INDEX "webhook_messages_chain_idx";--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD COLUMN "event_tx_id" bigint;--> statement-breakpoint
CREATE INDEX "webhook_messages_chain_idx" ON "webhook_messages" USING btree ("webhook_id","candidate_id","event_tx_id","event_seq","seq") WHERE "webhook_messages"."status" = 'pending';--> statement-breakpoint
-- Messages already written take their event's transaction from the history.
UPDATE "webhook_messages" m SET "event_tx_id" = e."tx_id" FROM "events" e WHERE e."id" = m."event_id" AND m."candidate_id" IS NOT NULL;
