-- Hand-written: every waiting message gets its key before the index that
-- could find one without it goes (nothing finds a waiting message without
-- its key afterwards: webhook-waiting-message-keys.ts). A release before 0020
-- wrote messages without chain rows, and 0020 asked for its processes to be
-- stopped; one that ran on wrote some anyway. The lock keeps writers out until
-- the index is gone.
LOCK TABLE "webhook_messages" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
INSERT INTO "webhook_chain_messages" ("message_id", "history_at", "webhook_id", "candidate_id")
  SELECT "id", "history_at", "webhook_id", "candidate_id" FROM "webhook_messages" WHERE "status" = 'pending' AND "candidate_id" IS NOT NULL
  ON CONFLICT ("message_id") DO NOTHING;--> statement-breakpoint
-- A chain head (or a sample) with neither a ready row nor a retry's waits for
-- its retry; the dispatchers move it to the ready set once due (at once if it is).
INSERT INTO "webhook_waiting_retries" ("message_id", "history_at", "webhook_id", "due_at", "seq")
  SELECT m."id", m."history_at", m."webhook_id", m."next_attempt_at", m."seq" FROM "webhook_messages" m
  WHERE m."status" = 'pending' AND NOT m."held"
    AND NOT EXISTS (SELECT FROM "webhook_ready_messages" r WHERE r."message_id" = m."id")
    AND NOT EXISTS (SELECT FROM "webhook_waiting_retries" w WHERE w."message_id" = m."id")
  ON CONFLICT ("message_id") DO NOTHING;--> statement-breakpoint
DROP INDEX "webhook_messages_chain_idx";--> statement-breakpoint
CREATE VIEW "public"."webhook_waiting_message_keys" AS (
  select message_id, history_at, webhook_id from webhook_chain_messages
  union select message_id, history_at, webhook_id from webhook_ready_messages
  union select message_id, history_at, webhook_id from webhook_waiting_retries);--> statement-breakpoint
-- Hand-written: room on each page of the log's days for a message's new
-- version. With no index on the columns an outcome changes, recording it
-- updates the message in place (a HOT update: no new entry in any of its
-- indexes) when its page has room; days made later take the newest day's
-- storage parameters (migration 0014). Pages written before keep their fill.
DO $$
DECLARE
  day regclass;
BEGIN
  FOR day IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'webhook_messages'::regclass LOOP
    EXECUTE format('ALTER TABLE %s SET (fillfactor = 90)', day);
  END LOOP;
END $$;
