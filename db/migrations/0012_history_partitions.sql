-- The history (events) and the delivery log (webhook_messages, webhook_attempts)
-- become partitioned by UTC day, so that retention drops whole days instead of
-- deleting rows (db/partitions.ts). Written by hand: drizzle-kit does not make
-- partitioned tables; meta/0012_snapshot.json is what drizzle-kit generated
-- from db/schema, so `drizzle-kit generate` sees no difference afterwards.
--
-- What partitioning cannot keep across partitions is kept another way:
-- * primary keys are (id, partition key);
-- * "at most once per attempt" (submitted, scored, ready): a trigger writes
--   the non-partitioned table events_once_per_attempt, keyed (candidate_id, type);
-- * one message per webhook and event: a message of an event is partitioned
--   by its event's created_at (history_at), the same for every message of
--   the event, so the unique index holds with history_at in it;
-- * attempts are partitioned by their message's history_at and dropped with
--   its day; their foreign key to the message goes (detaching a day of
--   messages would check every attempt partition), one to the webhook comes.
--
-- Each table has a DEFAULT partition so that no insert ever fails for want of
-- a day (a clock far off, a day not yet made); it is kept empty: the days are
-- made 7 ahead, and rows found in it move to their day when the day is made.
--
-- The old tables lose their indexes and keys (their names are reused), are
-- copied, and dropped; the `seq` sequences carry on.
ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_message_id_webhook_messages_id_fk";--> statement-breakpoint
ALTER TABLE "events" RENAME TO "events_unpartitioned";--> statement-breakpoint
ALTER TABLE "events_unpartitioned" DROP CONSTRAINT "events_pkey";--> statement-breakpoint
DROP INDEX "events_feed_idx";--> statement-breakpoint
DROP INDEX "events_interview_feed_idx";--> statement-breakpoint
DROP INDEX "events_created_idx";--> statement-breakpoint
DROP INDEX "events_once_per_attempt_key";--> statement-breakpoint
ALTER TABLE "webhook_messages" RENAME TO "webhook_messages_unpartitioned";--> statement-breakpoint
ALTER TABLE "webhook_messages_unpartitioned" DROP CONSTRAINT "webhook_messages_pkey";--> statement-breakpoint
DROP INDEX "webhook_messages_event_key";--> statement-breakpoint
DROP INDEX "webhook_messages_other_event_idx";--> statement-breakpoint
DROP INDEX "webhook_messages_candidate_idx";--> statement-breakpoint
DROP INDEX "webhook_messages_resent_from_idx";--> statement-breakpoint
DROP INDEX "webhook_messages_chain_idx";--> statement-breakpoint
DROP INDEX "webhook_messages_log_idx";--> statement-breakpoint
DROP INDEX "webhook_messages_ready_idx";--> statement-breakpoint
ALTER TABLE "webhook_attempts" RENAME TO "webhook_attempts_unpartitioned";--> statement-breakpoint
ALTER TABLE "webhook_attempts_unpartitioned" DROP CONSTRAINT "webhook_attempts_pkey";--> statement-breakpoint
DROP INDEX "webhook_attempts_message_idx";--> statement-breakpoint
DROP INDEX "webhook_attempts_webhook_idx";--> statement-breakpoint
CREATE TABLE "events" (
	"id" text NOT NULL,
	"company_id" text NOT NULL,
	"candidate_id" text NOT NULL,
	"interview_id" text NOT NULL,
	"type" text NOT NULL,
	"change" jsonb,
	"created_at" timestamp (3) with time zone NOT NULL,
	"tx_id" bigint DEFAULT (pg_current_xact_id()::text)::bigint NOT NULL,
	"seq" bigint DEFAULT nextval('events_seq_seq') NOT NULL,
	CONSTRAINT "events_id_created_at_pk" PRIMARY KEY("id","created_at")
) PARTITION BY RANGE ("created_at");--> statement-breakpoint
CREATE TABLE "webhook_messages" (
	"id" text NOT NULL,
	"company_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"origin" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"candidate_id" text,
	"event_tx_id" bigint,
	"event_seq" bigint,
	"is_test" boolean DEFAULT false NOT NULL,
	"sample_body" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone NOT NULL,
	"held" boolean DEFAULT false NOT NULL,
	"attempt_started_at" timestamp (3) with time zone,
	"completed_at" timestamp (3) with time zone,
	"failure_reason" text,
	"resent_from" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"history_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"seq" bigint DEFAULT nextval('webhook_messages_seq_seq') NOT NULL,
	CONSTRAINT "webhook_messages_id_history_at_pk" PRIMARY KEY("id","history_at")
) PARTITION BY RANGE ("history_at");--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" text NOT NULL,
	"message_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"url" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"request_headers" jsonb NOT NULL,
	"request_body" text,
	"request_body_bytes" integer,
	"response_status" integer,
	"response_headers" jsonb,
	"response_body" text,
	"succeeded" boolean NOT NULL,
	"error_class" text,
	"error_message" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"history_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "webhook_attempts_id_history_at_pk" PRIMARY KEY("id","history_at")
) PARTITION BY RANGE ("history_at");--> statement-breakpoint
CREATE INDEX "events_feed_idx" ON "events" USING btree ("company_id","tx_id","seq");--> statement-breakpoint
CREATE INDEX "events_interview_feed_idx" ON "events" USING btree ("company_id","interview_id","tx_id","seq");--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_messages_event_key" ON "webhook_messages" USING btree ("webhook_id","event_id" text_pattern_ops,"history_at") WHERE "webhook_messages"."origin" = 'event';--> statement-breakpoint
CREATE INDEX "webhook_messages_other_event_idx" ON "webhook_messages" USING btree ("webhook_id","event_id" text_pattern_ops) WHERE "webhook_messages"."origin" <> 'event';--> statement-breakpoint
CREATE INDEX "webhook_messages_candidate_idx" ON "webhook_messages" USING btree ("webhook_id","candidate_id" text_pattern_ops) WHERE "webhook_messages"."candidate_id" is not null;--> statement-breakpoint
CREATE INDEX "webhook_messages_resent_from_idx" ON "webhook_messages" USING btree ("resent_from") WHERE "webhook_messages"."resent_from" is not null;--> statement-breakpoint
CREATE INDEX "webhook_messages_chain_idx" ON "webhook_messages" USING btree ("webhook_id","candidate_id","event_tx_id","event_seq","seq") WHERE "webhook_messages"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_messages_log_idx" ON "webhook_messages" USING btree ("webhook_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_messages_ready_idx" ON "webhook_messages" USING btree ("next_attempt_at","seq") WHERE "webhook_messages"."status" = 'pending' and not "webhook_messages"."held";--> statement-breakpoint
CREATE INDEX "webhook_attempts_message_idx" ON "webhook_attempts" USING btree ("message_id","attempt");--> statement-breakpoint
CREATE INDEX "webhook_attempts_webhook_idx" ON "webhook_attempts" USING btree ("webhook_id","started_at");--> statement-breakpoint
-- A partition's indexes are named after the parent's (`events_feed_idx_20261123`), so plans read plainly.
CREATE FUNCTION history_partition_name_indexes(p_partition regclass, p_suffix text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  ix record;
BEGIN
  FOR ix IN
    SELECT child.relname AS child_name, parent.relname || '_' || p_suffix AS wanted
    FROM pg_index i
    JOIN pg_class child ON child.oid = i.indexrelid
    JOIN pg_inherits h ON h.inhrelid = i.indexrelid
    JOIN pg_class parent ON parent.oid = h.inhparent
    WHERE i.indrelid = p_partition
  LOOP
    IF ix.child_name <> ix.wanted THEN
      EXECUTE format('ALTER INDEX %I RENAME TO %I', ix.child_name, ix.wanted);
    END IF;
  END LOOP;
END $$;
--> statement-breakpoint
-- The partition of `p_parent` for the UTC day `p_day` (`events_20261123`),
-- unless it exists; returns whether it was made. Rows of that day waiting in
-- the DEFAULT partition move into it in the same transaction (PostgreSQL
-- refuses a day whose rows are in the default partition). Takes the parent's
-- ACCESS EXCLUSIVE lock, as CREATE TABLE … PARTITION OF would, first: the
-- caller bounds the wait with lock_timeout.
CREATE FUNCTION history_partition_create(p_parent text, p_column text, p_day date) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  suffix text := to_char(p_day, 'YYYYMMDD');
  part text := p_parent || '_' || suffix;
  fallback text := p_parent || '_default';
  low timestamptz := p_day::timestamp AT TIME ZONE 'UTC';
  high timestamptz := (p_day + 1)::timestamp AT TIME ZONE 'UTC';
  waiting boolean;
BEGIN
  IF to_regclass(part) IS NOT NULL THEN RETURN false; END IF;
  EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', p_parent);
  IF to_regclass(part) IS NOT NULL THEN RETURN false; END IF;
  EXECUTE format('SELECT EXISTS (SELECT FROM %I WHERE %I >= %L AND %I < %L)', fallback, p_column, low, p_column, high) INTO waiting;
  IF waiting THEN
    EXECUTE format('CREATE TEMP TABLE history_partition_moving ON COMMIT DROP AS WITH moved AS (DELETE FROM %I WHERE %I >= %L AND %I < %L RETURNING *) SELECT * FROM moved',
      fallback, p_column, low, p_column, high);
  END IF;
  EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', part, p_parent, low, high);
  PERFORM history_partition_name_indexes(part::regclass, suffix);
  IF waiting THEN
    EXECUTE format('INSERT INTO %I SELECT * FROM history_partition_moving', part);
    DROP TABLE history_partition_moving;
  END IF;
  RETURN true;
END $$;
--> statement-breakpoint
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;--> statement-breakpoint
CREATE TABLE "webhook_messages_default" PARTITION OF "webhook_messages" DEFAULT;--> statement-breakpoint
CREATE TABLE "webhook_attempts_default" PARTITION OF "webhook_attempts" DEFAULT;--> statement-breakpoint
SELECT history_partition_name_indexes(t::regclass, 'default') FROM unnest(ARRAY['events_default', 'webhook_messages_default', 'webhook_attempts_default']) AS t;--> statement-breakpoint
-- The days of the rows kept, today and the 7 days ahead, for each table.
-- (A message of an event takes its event's time; one whose event is gone, its own.)
CREATE TEMP TABLE "history_days" ON COMMIT DROP AS
  SELECT DISTINCT day FROM (
    SELECT (created_at AT TIME ZONE 'UTC')::date AS day FROM events_unpartitioned
    UNION ALL SELECT (created_at AT TIME ZONE 'UTC')::date FROM webhook_messages_unpartitioned
    UNION ALL SELECT generate_series((now() AT TIME ZONE 'UTC')::date::timestamp, (now() AT TIME ZONE 'UTC')::date::timestamp + interval '7 days', interval '1 day')::date
  ) d;--> statement-breakpoint
SELECT history_partition_create(t.parent, t.key, d.day)
FROM history_days d CROSS JOIN (VALUES ('events', 'created_at'), ('webhook_messages', 'history_at'), ('webhook_attempts', 'history_at')) AS t(parent, key);--> statement-breakpoint
INSERT INTO "events" (id, company_id, candidate_id, interview_id, type, change, created_at, tx_id, seq)
  SELECT id, company_id, candidate_id, interview_id, type, change, created_at, tx_id, seq FROM events_unpartitioned;--> statement-breakpoint
INSERT INTO "webhook_messages" (id, company_id, webhook_id, origin, event_id, event_type, candidate_id, event_tx_id, event_seq, is_test, sample_body,
    status, attempt_count, next_attempt_at, held, attempt_started_at, completed_at, failure_reason, resent_from, created_at, history_at, seq)
  SELECT m.id, m.company_id, m.webhook_id, m.origin, m.event_id, m.event_type, m.candidate_id, m.event_tx_id, m.event_seq, m.is_test, m.sample_body,
    m.status, m.attempt_count, m.next_attempt_at, m.held, m.attempt_started_at, m.completed_at, m.failure_reason, m.resent_from, m.created_at,
    CASE WHEN m.origin = 'event' THEN coalesce(e.created_at, m.created_at) ELSE m.created_at END, m.seq
  FROM webhook_messages_unpartitioned m
  LEFT JOIN events_unpartitioned e ON m.origin = 'event' AND e.id = m.event_id;--> statement-breakpoint
INSERT INTO "webhook_attempts" (id, message_id, webhook_id, attempt, url, started_at, duration_ms, request_headers, request_body, request_body_bytes,
    response_status, response_headers, response_body, succeeded, error_class, error_message, created_at, history_at)
  SELECT a.id, a.message_id, a.webhook_id, a.attempt, a.url, a.started_at, a.duration_ms, a.request_headers, a.request_body, a.request_body_bytes,
    a.response_status, a.response_headers, a.response_body, a.succeeded, a.error_class, a.error_message, a.created_at, m.history_at
  FROM webhook_attempts_unpartitioned a JOIN webhook_messages m ON m.id = a.message_id;--> statement-breakpoint
ALTER SEQUENCE "events_seq_seq" OWNED BY "events"."seq";--> statement-breakpoint
ALTER SEQUENCE "webhook_messages_seq_seq" OWNED BY "webhook_messages"."seq";--> statement-breakpoint
DROP TABLE "webhook_attempts_unpartitioned";--> statement-breakpoint
DROP TABLE "webhook_messages_unpartitioned";--> statement-breakpoint
DROP TABLE "events_unpartitioned";--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD CONSTRAINT "webhook_messages_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "events_once_per_attempt" (
	"candidate_id" text NOT NULL,
	"type" text NOT NULL,
	"event_id" text NOT NULL,
	CONSTRAINT "events_once_per_attempt_key" PRIMARY KEY("candidate_id","type")
);--> statement-breakpoint
INSERT INTO "events_once_per_attempt" (candidate_id, type, event_id)
  SELECT candidate_id, type, id FROM events WHERE type IN ('candidate.submitted', 'candidate.scored', 'candidate.ready');--> statement-breakpoint
-- Takes the (candidate, type) slot for the event, in the event's own
-- statement. The same event written again (moved out of the DEFAULT
-- partition) finds its own slot; another event finds it taken: a unique
-- violation on events_once_per_attempt_key, as the old unique index gave.
-- A concurrent writer of the same slot waits for the first to end (ON CONFLICT).
CREATE FUNCTION events_once_per_attempt() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events_once_per_attempt (candidate_id, type, event_id) VALUES (NEW.candidate_id, NEW.type, NEW.id)
  ON CONFLICT (candidate_id, type) DO NOTHING;
  IF NOT FOUND AND NOT EXISTS (
    SELECT FROM events_once_per_attempt o WHERE o.candidate_id = NEW.candidate_id AND o.type = NEW.type AND o.event_id = NEW.id
  ) THEN
    RAISE unique_violation USING
      MESSAGE = 'duplicate key value violates unique constraint "events_once_per_attempt_key"',
      DETAIL = format('Key (candidate_id, type)=(%s, %s) already exists.', NEW.candidate_id, NEW.type),
      CONSTRAINT = 'events_once_per_attempt_key', TABLE = 'events';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "events_once_per_attempt" BEFORE INSERT ON "events"
  FOR EACH ROW WHEN (NEW.type IN ('candidate.submitted', 'candidate.scored', 'candidate.ready'))
  EXECUTE FUNCTION events_once_per_attempt();
