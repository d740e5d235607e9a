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
