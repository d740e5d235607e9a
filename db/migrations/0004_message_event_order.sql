DROP INDEX "webhook_messages_chain_idx";--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD COLUMN "event_seq" bigint;--> statement-breakpoint
CREATE INDEX "webhook_messages_chain_idx" ON "webhook_messages" USING btree ("webhook_id","candidate_id","event_seq","seq") WHERE "webhook_messages"."status" = 'pending';