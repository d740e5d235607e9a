DROP INDEX "webhook_messages_event_key";--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "request_body" text;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "request_body_bytes" integer;--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD COLUMN "resent_from" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "description" text;--> statement-breakpoint
CREATE INDEX "webhook_messages_other_event_idx" ON "webhook_messages" USING btree ("webhook_id","event_id" text_pattern_ops) WHERE "webhook_messages"."origin" <> 'event';--> statement-breakpoint
CREATE INDEX "webhook_messages_candidate_idx" ON "webhook_messages" USING btree ("webhook_id","candidate_id" text_pattern_ops) WHERE "webhook_messages"."candidate_id" is not null;--> statement-breakpoint
CREATE INDEX "webhook_messages_resent_from_idx" ON "webhook_messages" USING btree ("resent_from") WHERE "webhook_messages"."resent_from" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_messages_event_key" ON "webhook_messages" USING btree ("webhook_id","event_id" text_pattern_ops) WHERE "webhook_messages"."origin" = 'event';