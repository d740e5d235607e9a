CREATE INDEX "webhook_chain_messages_history_idx" ON "webhook_chain_messages" USING btree ("history_at");--> statement-breakpoint
CREATE INDEX "webhook_ready_messages_history_idx" ON "webhook_ready_messages" USING btree ("history_at");--> statement-breakpoint
-- Hand-written: the first and last partition key among the waiting messages
-- the hot path looks up by key (the ready set's and the chains' rows; null
-- when none waits), read through the two indexes above. The hot statements
-- bound such a lookup with them (server/webhooks/delivery/waiting-days.ts).
-- PL/pgSQL, so that PostgreSQL never inlines them: a call is evaluated as
-- the statement starts, and only the days between open.
CREATE FUNCTION "webhook_waiting_from"() RETURNS timestamptz LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
  RETURN least((SELECT min("history_at") FROM "webhook_ready_messages"), (SELECT min("history_at") FROM "webhook_chain_messages"));
END $$;--> statement-breakpoint
CREATE FUNCTION "webhook_waiting_until"() RETURNS timestamptz LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
  RETURN greatest((SELECT max("history_at") FROM "webhook_ready_messages"), (SELECT max("history_at") FROM "webhook_chain_messages"));
END $$;
