CREATE TABLE "webhook_chain_messages" (
	"message_id" text PRIMARY KEY NOT NULL,
	"history_at" timestamp (3) with time zone NOT NULL,
	"webhook_id" text NOT NULL,
	"candidate_id" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_chain_messages" ADD CONSTRAINT "webhook_chain_messages_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_chain_messages_chain_idx" ON "webhook_chain_messages" USING btree ("webhook_id","candidate_id");--> statement-breakpoint
-- Hand-written: the table's vacuum settings (drizzle cannot declare them) and its first rows.
-- Every row lives from its message's creation to its outcome, seconds when
-- deliveries keep up: vacuum and analyze it as the ready set is (0018).
ALTER TABLE "webhook_chain_messages" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 500, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 1000, autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 1000, autovacuum_vacuum_cost_delay = 0);--> statement-breakpoint
-- Every waiting message of a chain.
INSERT INTO "webhook_chain_messages" ("message_id", "history_at", "webhook_id", "candidate_id")
  SELECT "id", "history_at", "webhook_id", "candidate_id" FROM "webhook_messages" WHERE "status" = 'pending' AND "candidate_id" IS NOT NULL;
