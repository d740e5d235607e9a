DROP VIEW "webhook_waiting_message_keys";--> statement-breakpoint
DROP TABLE "webhook_ready_messages";--> statement-breakpoint
DROP TABLE "webhook_waiting_retries";--> statement-breakpoint
DROP TABLE "webhook_chain_messages";--> statement-breakpoint
ALTER TABLE "webhook_messages" DROP COLUMN "held";--> statement-breakpoint
CREATE TABLE "webhook_queue" (
	"message_id" text PRIMARY KEY NOT NULL,
	"history_at" timestamp (3) with time zone NOT NULL,
	"webhook_id" text NOT NULL,
	"candidate_id" text,
	"position" bigint NOT NULL,
	"state" text NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"leased_at" timestamp (3) with time zone,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"queued_at" timestamp (3) with time zone NOT NULL
);--> statement-breakpoint
ALTER TABLE "webhook_queue" ADD CONSTRAINT "webhook_queue_state_check" CHECK ("webhook_queue"."state" in ('held', 'ready', 'running'));--> statement-breakpoint
ALTER TABLE "webhook_queue" ADD CONSTRAINT "webhook_queue_lease_check" CHECK (("webhook_queue"."state" = 'running') = ("webhook_queue"."leased_at" is not null));--> statement-breakpoint
ALTER TABLE "webhook_queue" ADD CONSTRAINT "webhook_queue_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_queue_claim_idx" ON "webhook_queue" USING btree ("webhook_id","due_at","position") WHERE "webhook_queue"."state" <> 'held';--> statement-breakpoint
CREATE INDEX "webhook_queue_chain_idx" ON "webhook_queue" USING btree ("webhook_id","candidate_id","position") WHERE "webhook_queue"."candidate_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_queue_one_head_idx" ON "webhook_queue" USING btree ("webhook_id","candidate_id") WHERE "webhook_queue"."state" <> 'held' and "webhook_queue"."candidate_id" is not null;--> statement-breakpoint
ALTER TABLE "webhook_queue" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 500, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 1000, autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 1000, autovacuum_vacuum_cost_delay = 0, fillfactor = 80);
