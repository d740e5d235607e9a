DROP INDEX "webhook_messages_due_idx";--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD COLUMN "held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_messages_ready_idx" ON "webhook_messages" USING btree ("next_attempt_at","seq") WHERE "webhook_messages"."status" = 'pending' and not "webhook_messages"."held";--> statement-breakpoint
-- A pending message behind an earlier pending one of its chain waits (before, it had no delivery job).
UPDATE "webhook_messages" m SET "held" = true
WHERE m."status" = 'pending' AND m."candidate_id" IS NOT NULL AND EXISTS (
  SELECT 1 FROM "webhook_messages" e
  WHERE e."webhook_id" = m."webhook_id" AND e."candidate_id" = m."candidate_id" AND e."status" = 'pending'
    AND (e."event_tx_id", e."event_seq", e."seq") < (m."event_tx_id", m."event_seq", m."seq"));--> statement-breakpoint
-- Deliveries are claimed from the log now: the old one-job-per-message task's jobs go.
DO $$ BEGIN
  IF to_regclass('graphile_worker._private_jobs') IS NOT NULL THEN
    DELETE FROM graphile_worker._private_jobs j USING graphile_worker._private_tasks t
    WHERE t.id = j.task_id AND t.identifier = 'deliver-webhook-message';
  END IF;
END $$;
