CREATE TABLE "webhook_ready_messages" (
	"message_id" text PRIMARY KEY NOT NULL,
	"history_at" timestamp (3) with time zone NOT NULL,
	"webhook_id" text NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"seq" bigint NOT NULL,
	"leased_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_send_paces" (
	"webhook_id" text PRIMARY KEY NOT NULL,
	"sent_until" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_waiting_retries" (
	"message_id" text PRIMARY KEY NOT NULL,
	"history_at" timestamp (3) with time zone NOT NULL,
	"webhook_id" text NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "webhook_messages_ready_idx";--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "rate_limit_per_second" integer;--> statement-breakpoint
ALTER TABLE "webhook_ready_messages" ADD CONSTRAINT "webhook_ready_messages_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_send_paces" ADD CONSTRAINT "webhook_send_paces_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_waiting_retries" ADD CONSTRAINT "webhook_waiting_retries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_ready_messages_claim_idx" ON "webhook_ready_messages" USING btree ("webhook_id","due_at","seq");--> statement-breakpoint
CREATE INDEX "webhook_waiting_retries_due_idx" ON "webhook_waiting_retries" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "webhook_waiting_retries_webhook_idx" ON "webhook_waiting_retries" USING btree ("webhook_id");--> statement-breakpoint
ALTER TABLE "webhook_messages" DROP COLUMN "attempt_started_at";--> statement-breakpoint
-- Hand-written: the queue's vacuum settings (drizzle cannot declare them) and its first rows.
-- Every ready row is written two or three times within seconds (entered,
-- leased, deleted): vacuum it after a few hundred dead rows, not after a
-- fifth of the table, and without the cost delay, so the claim's index stays
-- free of dead entries (as Hatchet does for its queue items).
ALTER TABLE "webhook_ready_messages" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 500, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 1000, autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 1000, autovacuum_vacuum_cost_delay = 0, fillfactor = 80);--> statement-breakpoint
ALTER TABLE "webhook_waiting_retries" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 500, autovacuum_vacuum_cost_delay = 0);--> statement-breakpoint
ALTER TABLE "webhook_send_paces" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 100, autovacuum_vacuum_cost_delay = 0, fillfactor = 50);--> statement-breakpoint
-- Chain heads waiting now: due ones are ready, later ones wait for their retry. One in flight goes again (at least once).
INSERT INTO "webhook_ready_messages" ("message_id", "history_at", "webhook_id", "due_at", "seq")
  SELECT "id", "history_at", "webhook_id", "next_attempt_at", "seq" FROM "webhook_messages" WHERE "status" = 'pending' AND NOT "held" AND "next_attempt_at" <= now();--> statement-breakpoint
INSERT INTO "webhook_waiting_retries" ("message_id", "history_at", "webhook_id", "due_at", "seq")
  SELECT "id", "history_at", "webhook_id", "next_attempt_at", "seq" FROM "webhook_messages" WHERE "status" = 'pending' AND NOT "held" AND "next_attempt_at" > now();
