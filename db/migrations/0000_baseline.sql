-- The whole schema, on an empty database. The tables, keys, indexes and the
-- view are what drizzle-kit generates from db/schema (meta/0000_snapshot.json),
-- with two changes it does not see: PARTITION BY on the history's three
-- tables, and the columns of candidates, emails and webhooks in the order the
-- databases made so far have them (the later ones last). The rest, after the
-- view, is SQL drizzle cannot declare: the API's rate-limit buckets and
-- admission, the history's partitions and their functions, the
-- once-per-attempt trigger, and the hot tables' storage parameters.
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"name" text NOT NULL,
	"hash" text NOT NULL,
	"display_prefix" text NOT NULL,
	"created_by_user_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "candidate_answers" (
	"candidate_id" text NOT NULL,
	"question_id" text NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"answered_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "candidate_answers_candidate_id_question_id_pk" PRIMARY KEY("candidate_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "candidates" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"interview_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"is_preview" boolean DEFAULT false NOT NULL,
	"previewed_by_user_id" text,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"rejection_reason" text,
	"started_at" timestamp (3) with time zone NOT NULL,
	"submitted_at" timestamp (3) with time zone,
	"ended_at" timestamp (3) with time zone,
	"ai_started_at" timestamp (3) with time zone,
	"ai_finished_at" timestamp (3) with time zone,
	"ai_mode" text,
	"ai_language" text,
	"ai_duration_seconds" integer,
	"ai_questions_asked" integer DEFAULT 0 NOT NULL,
	"ai_questions_answered" integer DEFAULT 0 NOT NULL,
	"recording_status" text,
	"recording_file_id" text,
	"recording_duration_seconds" integer,
	"score_status" text DEFAULT 'pending' NOT NULL,
	"scored_at" timestamp (3) with time zone,
	"result_state" text DEFAULT 'waiting' NOT NULL,
	"incomplete_reason" text,
	"result_final_at" timestamp (3) with time zone,
	"score" integer,
	"recommendation" text,
	"summary" text,
	"strengths" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"areas_to_improve" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"skills" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"highlights" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ended_for_conduct" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"api_json" text
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"suspended_at" timestamp (3) with time zone,
	"rate_limit_per_key" integer,
	"rate_limit_per_company" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "emails" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"kind" text NOT NULL,
	"recipients" jsonb NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"error" text,
	"claimed_until" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text NOT NULL,
	"company_id" text NOT NULL,
	"candidate_id" text NOT NULL,
	"interview_id" text NOT NULL,
	"type" text NOT NULL,
	"change" jsonb,
	"created_at" timestamp (3) with time zone NOT NULL,
	"tx_id" bigint DEFAULT (pg_current_xact_id()::text)::bigint NOT NULL,
	"seq" bigserial NOT NULL,
	CONSTRAINT "events_id_created_at_pk" PRIMARY KEY("id","created_at")
) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
CREATE TABLE "events_once_per_attempt" (
	"candidate_id" text NOT NULL,
	"type" text NOT NULL,
	"event_id" text NOT NULL,
	CONSTRAINT "events_once_per_attempt_key" PRIMARY KEY("candidate_id","type")
);
--> statement-breakpoint
CREATE TABLE "fan_out_positions" (
	"company_id" text PRIMARY KEY NOT NULL,
	"tx_id" bigint DEFAULT 0 NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"candidate_id" text NOT NULL,
	"kind" text NOT NULL,
	"label" text,
	"file_name" text NOT NULL,
	"content_type" text,
	"size_bytes" bigint,
	"storage_key" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "interview_questions" (
	"id" text PRIMARY KEY NOT NULL,
	"interview_id" text NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"type" text NOT NULL,
	"required" boolean NOT NULL,
	"choices" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interviews" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"language" text NOT NULL,
	"access_mode" text NOT NULL,
	"pass_mark" integer,
	"ai_step" jsonb,
	"document_step" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp (3) with time zone,
	"closed_at" timestamp (3) with time zone,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "transcript_entries" (
	"candidate_id" text NOT NULL,
	"index" integer NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"speaking_seconds" integer NOT NULL,
	CONSTRAINT "transcript_entries_candidate_id_index_pk" PRIMARY KEY("candidate_id","index")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"session_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
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
) PARTITION BY RANGE ("history_at");
--> statement-breakpoint
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
	"completed_at" timestamp (3) with time zone,
	"failure_reason" text,
	"resent_from" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"history_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"seq" bigserial NOT NULL,
	CONSTRAINT "webhook_messages_id_history_at_pk" PRIMARY KEY("id","history_at")
) PARTITION BY RANGE ("history_at");
--> statement-breakpoint
CREATE TABLE "webhook_queue" (
	"message_id" text PRIMARY KEY NOT NULL,
	"history_at" timestamp (3) with time zone NOT NULL,
	"webhook_id" text NOT NULL,
	"candidate_id" text,
	"company_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"event_at" timestamp (3) with time zone,
	"event_change" jsonb,
	"sample_body" jsonb,
	"position" bigint NOT NULL,
	"state" text NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"leased_at" timestamp (3) with time zone,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"queued_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "webhook_queue_state_check" CHECK ("webhook_queue"."state" in ('held', 'ready', 'running')),
	CONSTRAINT "webhook_queue_lease_check" CHECK (("webhook_queue"."state" = 'running') = ("webhook_queue"."leased_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "webhook_send_paces" (
	"webhook_id" text PRIMARY KEY NOT NULL,
	"sent_until" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"url" text NOT NULL,
	"event_types" jsonb NOT NULL,
	"all_interviews" boolean DEFAULT true NOT NULL,
	"interview_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_at" timestamp (3) with time zone,
	"disabled_reason" text,
	"secret_ciphertext" text NOT NULL,
	"previous_secret_ciphertext" text,
	"previous_secret_expires_at" timestamp (3) with time zone,
	"failing_since" timestamp (3) with time zone,
	"failure_alerted_at" timestamp (3) with time zone,
	"last_success_at" timestamp (3) with time zone,
	"last_failure_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"description" text,
	"rate_limit_per_second" integer,
	"custom_headers_ciphertext" text,
	"conditions" jsonb
);
--> statement-breakpoint
CREATE TABLE "worker_heartbeats" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_answers" ADD CONSTRAINT "candidate_answers_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_previewed_by_user_id_users_id_fk" FOREIGN KEY ("previewed_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fan_out_positions" ADD CONSTRAINT "fan_out_positions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_questions" ADD CONSTRAINT "interview_questions_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcript_entries" ADD CONSTRAINT "transcript_entries_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD CONSTRAINT "webhook_messages_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_queue" ADD CONSTRAINT "webhook_queue_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_send_paces" ADD CONSTRAINT "webhook_send_paces_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "api_keys_company_idx" ON "api_keys" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "candidates_submitted_idx" ON "candidates" USING btree ("company_id","submitted_at","id") WHERE not "candidates"."is_preview" and "candidates"."submitted_at" is not null;--> statement-breakpoint
CREATE INDEX "candidates_interview_submitted_idx" ON "candidates" USING btree ("company_id","interview_id","submitted_at","id") WHERE not "candidates"."is_preview" and "candidates"."submitted_at" is not null;--> statement-breakpoint
CREATE INDEX "candidates_started_idx" ON "candidates" USING btree ("company_id","started_at","id") WHERE not "candidates"."is_preview";--> statement-breakpoint
CREATE INDEX "candidates_interview_started_idx" ON "candidates" USING btree ("company_id","interview_id","started_at","id") WHERE not "candidates"."is_preview";--> statement-breakpoint
CREATE INDEX "candidates_in_progress_idx" ON "candidates" USING btree ("company_id","started_at","id") WHERE not "candidates"."is_preview" and "candidates"."status" = 'in_progress';--> statement-breakpoint
CREATE INDEX "candidates_unrendered_idx" ON "candidates" USING btree ("id") WHERE "candidates"."api_json" is null;--> statement-breakpoint
CREATE INDEX "candidates_attempts_idx" ON "candidates" USING btree ("interview_id",lower("email"),"attempt");--> statement-breakpoint
CREATE INDEX "emails_company_idx" ON "emails" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "events_feed_idx" ON "events" USING btree ("company_id","tx_id","seq");--> statement-breakpoint
CREATE INDEX "events_interview_feed_idx" ON "events" USING btree ("company_id","interview_id","tx_id","seq");--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "files_candidate_idx" ON "files" USING btree ("candidate_id","created_at") WHERE "files"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "interview_questions_position_key" ON "interview_questions" USING btree ("interview_id","position");--> statement-breakpoint
CREATE INDEX "interviews_list_idx" ON "interviews" USING btree ("company_id","created_at","id") WHERE "interviews"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "interviews_list_by_status_idx" ON "interviews" USING btree ("company_id","status","created_at","id") WHERE "interviews"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_company_idx" ON "users" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_message_idx" ON "webhook_attempts" USING btree ("message_id","attempt");--> statement-breakpoint
CREATE INDEX "webhook_attempts_webhook_idx" ON "webhook_attempts" USING btree ("webhook_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_messages_event_key" ON "webhook_messages" USING btree ("webhook_id","event_id" text_pattern_ops,"history_at") WHERE "webhook_messages"."origin" = 'event';--> statement-breakpoint
CREATE INDEX "webhook_messages_other_event_idx" ON "webhook_messages" USING btree ("webhook_id","event_id" text_pattern_ops) WHERE "webhook_messages"."origin" <> 'event';--> statement-breakpoint
CREATE INDEX "webhook_messages_candidate_idx" ON "webhook_messages" USING btree ("webhook_id","candidate_id" text_pattern_ops) WHERE "webhook_messages"."candidate_id" is not null;--> statement-breakpoint
CREATE INDEX "webhook_messages_resent_from_idx" ON "webhook_messages" USING btree ("resent_from") WHERE "webhook_messages"."resent_from" is not null;--> statement-breakpoint
CREATE INDEX "webhook_messages_log_idx" ON "webhook_messages" USING btree ("webhook_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_queue_claim_idx" ON "webhook_queue" USING btree ("webhook_id","due_at","position") WHERE "webhook_queue"."state" <> 'held';--> statement-breakpoint
CREATE INDEX "webhook_queue_chain_idx" ON "webhook_queue" USING btree ("webhook_id","candidate_id","position") WHERE "webhook_queue"."candidate_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_queue_one_head_idx" ON "webhook_queue" USING btree ("webhook_id","candidate_id") WHERE "webhook_queue"."state" <> 'held' and "webhook_queue"."candidate_id" is not null;--> statement-breakpoint
CREATE INDEX "webhooks_company_idx" ON "webhooks" USING btree ("company_id","created_at");--> statement-breakpoint
-- API admission: authenticate a key by its hash and apply the rate limits, in
-- one round trip. Buckets use GCRA (one "theoretical arrival time" per bucket)
-- in an unlogged table: losing them in a crash only forgives a minute of use.
-- db/schema/rate-limit-buckets.ts names the table and the functions.
CREATE UNLOGGED TABLE "api_rate_limits" (
	"bucket" text PRIMARY KEY NOT NULL,
	"tat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Takes one request from a bucket allowing `p_limit` per minute. Decided by one
-- INSERT … ON CONFLICT statement, so concurrent requests cannot both take the last one.
CREATE FUNCTION api_rate_take(p_bucket text, p_limit integer, p_now timestamptz, OUT allowed boolean, OUT tat timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  emission interval := interval '60 seconds' / p_limit;
BEGIN
  INSERT INTO api_rate_limits AS b (bucket, tat) VALUES (p_bucket, p_now + emission)
  ON CONFLICT (bucket) DO UPDATE SET tat = greatest(b.tat, p_now) + emission
    WHERE greatest(b.tat, p_now) + emission <= p_now + interval '60 seconds'
  RETURNING b.tat INTO tat;
  allowed := FOUND;
  IF NOT allowed THEN
    SELECT b.tat INTO tat FROM api_rate_limits b WHERE b.bucket = p_bucket;
  END IF;
END $$;
--> statement-breakpoint
-- Requests a bucket can still take now. The epsilon absorbs interval rounding
-- (60 s / 7 is not exact), which would otherwise report one fewer.
CREATE FUNCTION api_rate_left(p_tat timestamptz, p_limit integer, p_now timestamptz) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT greatest(0, floor(extract(epoch FROM (p_now + interval '60 seconds' - p_tat)) * p_limit / 60 + 0.0001))::integer
$$;
--> statement-breakpoint
-- No row: unknown or revoked key. Otherwise the key, its company, and the
-- state of the tighter of the two buckets (per key first, then per company).
--
-- ROWS and COST: without them the planner takes a set-returning function to
-- return 1,000 rows. The API's one statement per request
-- (server/api/admission.ts) joins its page laterally to this function, so a
-- page of 25 would be estimated past jit_above_cost, where a stock
-- PostgreSQL with JIT spends seconds compiling a statement that runs in
-- milliseconds (tests/api/query-plans.test.ts checks the estimates). COST is
-- in units of cpu_operator_cost: a key and its company read, at most three
-- rows written by index.
CREATE FUNCTION api_admit(p_hash text, p_default_key_limit integer, p_default_company_limit integer)
RETURNS TABLE (
  api_key_id text, api_key_name text, company_id text, company_name text, company_suspended boolean,
  allowed boolean, rate_limit integer, remaining integer, reset_ms integer
)
LANGUAGE plpgsql ROWS 1 COST 800 AS $$
#variable_conflict use_column
DECLARE
  k record;
  now_ts timestamptz := clock_timestamp();
  key_take record;
  company_take record;
  chosen_limit integer;
  chosen_tat timestamptz;
BEGIN
  -- Buckets are unlogged and last_used_at is advisory: the commit need not
  -- wait for the WAL flush while it holds the hot bucket rows.
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT ak.id, ak.name, ak.company_id, ak.last_used_at, c.name AS company_name,
         c.suspended_at IS NOT NULL AS suspended,
         coalesce(c.rate_limit_per_key, p_default_key_limit) AS key_limit,
         coalesce(c.rate_limit_per_company, p_default_company_limit) AS company_limit
    INTO k
    FROM api_keys ak JOIN companies c ON c.id = ak.company_id
   WHERE ak.hash = p_hash AND ak.revoked_at IS NULL;
  IF NOT FOUND THEN RETURN; END IF;

  -- last_used_at is kept to the minute, so most requests write nothing.
  IF k.last_used_at IS NULL OR k.last_used_at < now_ts - interval '1 minute' THEN
    UPDATE api_keys SET last_used_at = now_ts WHERE id = k.id;
  END IF;

  api_key_id := k.id; api_key_name := k.name; company_id := k.company_id;
  company_name := k.company_name; company_suspended := k.suspended;
  IF k.suspended THEN
    allowed := false;
    RETURN NEXT;
    RETURN;
  END IF;

  key_take := api_rate_take('key:' || k.id, k.key_limit, now_ts);
  IF key_take.allowed THEN
    company_take := api_rate_take('company:' || k.company_id, k.company_limit, now_ts);
  END IF;

  IF NOT key_take.allowed THEN
    allowed := false; chosen_limit := k.key_limit; chosen_tat := key_take.tat;
  ELSIF NOT company_take.allowed THEN
    -- A request the company's limit refuses does not use up the key's own quota.
    UPDATE api_rate_limits SET tat = tat - interval '60 seconds' / k.key_limit WHERE bucket = 'key:' || k.id;
    allowed := false; chosen_limit := k.company_limit; chosen_tat := company_take.tat;
  ELSE
    allowed := true;
    -- Report the bucket with fewer requests left.
    IF api_rate_left(key_take.tat, k.key_limit, now_ts) <= api_rate_left(company_take.tat, k.company_limit, now_ts) THEN
      chosen_limit := k.key_limit; chosen_tat := key_take.tat;
    ELSE
      chosen_limit := k.company_limit; chosen_tat := company_take.tat;
    END IF;
  END IF;

  rate_limit := chosen_limit;
  remaining := api_rate_left(chosen_tat, chosen_limit, now_ts);
  -- Allowed: when the bucket is empty again. Refused: when one more request fits.
  reset_ms := CASE WHEN allowed
    THEN greatest(0, ceil(extract(epoch FROM (chosen_tat - now_ts)) * 1000))
    ELSE greatest(1, ceil(extract(epoch FROM (chosen_tat + interval '60 seconds' / chosen_limit - interval '60 seconds' - now_ts)) * 1000))
  END;
  RETURN NEXT;
END $$;
--> statement-breakpoint
-- The history (events) and the delivery log (webhook_messages, webhook_attempts)
-- are partitioned by UTC day, so that retention drops whole days instead of
-- deleting rows (db/partitions.ts). What partitioning cannot keep across
-- partitions is kept another way:
-- * primary keys are (id, partition key);
-- * "at most once per attempt" (submitted, scored, ready): a trigger writes
--   the non-partitioned table events_once_per_attempt, keyed (candidate_id, type);
-- * one message per webhook and event: a message of an event is partitioned
--   by its event's created_at (history_at), the same for every message of
--   the event, so the unique index holds with history_at in it;
-- * attempts are partitioned by their message's history_at and dropped with
--   its day; they have no foreign key to their message (detaching a day of
--   messages would check every attempt partition), only to the webhook.
--
-- Each table has a DEFAULT partition so that no insert ever fails for want of
-- a day (a clock far off, a day not yet made); it is kept empty: the days are
-- made 7 ahead, and rows found in it move to their day when the day is made.
--
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
--
-- The day takes the storage parameters (autovacuum settings, fillfactor) of
-- its table's newest day: PostgreSQL keeps none on a partitioned table, and a
-- new partition would start with the defaults, so a setting made on the days
-- there are would not last past them.
CREATE FUNCTION history_partition_create(p_parent text, p_column text, p_day date) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  suffix text := to_char(p_day, 'YYYYMMDD');
  part text := p_parent || '_' || suffix;
  fallback text := p_parent || '_default';
  low timestamptz := p_day::timestamp AT TIME ZONE 'UTC';
  high timestamptz := (p_day + 1)::timestamp AT TIME ZONE 'UTC';
  waiting boolean;
  newest_options text[];
BEGIN
  IF to_regclass(part) IS NOT NULL THEN RETURN false; END IF;
  EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', p_parent);
  IF to_regclass(part) IS NOT NULL THEN RETURN false; END IF;
  SELECT c.reloptions INTO newest_options
  FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid
  WHERE h.inhparent = p_parent::regclass AND c.relname ~ ('^' || p_parent || '_\d{8}$')
  ORDER BY c.relname DESC LIMIT 1;
  EXECUTE format('SELECT EXISTS (SELECT FROM %I WHERE %I >= %L AND %I < %L)', fallback, p_column, low, p_column, high) INTO waiting;
  IF waiting THEN
    EXECUTE format('CREATE TEMP TABLE history_partition_moving ON COMMIT DROP AS WITH moved AS (DELETE FROM %I WHERE %I >= %L AND %I < %L RETURNING *) SELECT * FROM moved',
      fallback, p_column, low, p_column, high);
  END IF;
  EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', part, p_parent, low, high);
  IF newest_options IS NOT NULL THEN
    EXECUTE format('ALTER TABLE %I SET (%s)', part, array_to_string(newest_options, ', '));
  END IF;
  PERFORM history_partition_name_indexes(part::regclass, suffix);
  IF waiting THEN
    EXECUTE format('INSERT INTO %I SELECT * FROM history_partition_moving', part);
    DROP TABLE history_partition_moving;
  END IF;
  RETURN true;
END $$;
--> statement-breakpoint
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;
--> statement-breakpoint
CREATE TABLE "webhook_messages_default" PARTITION OF "webhook_messages" DEFAULT;
--> statement-breakpoint
CREATE TABLE "webhook_attempts_default" PARTITION OF "webhook_attempts" DEFAULT;
--> statement-breakpoint
SELECT history_partition_name_indexes(t::regclass, 'default') FROM unnest(ARRAY['events_default', 'webhook_messages_default', 'webhook_attempts_default']) AS t;
--> statement-breakpoint
-- Today and the 7 days ahead, for each table (every start makes the rest: db/partitions.ts).
SELECT history_partition_create(t.parent, t.key, d.day::date)
FROM generate_series((now() AT TIME ZONE 'UTC')::date::timestamp, (now() AT TIME ZONE 'UTC')::date::timestamp + interval '7 days', interval '1 day') AS d(day)
CROSS JOIN (VALUES ('events', 'created_at'), ('webhook_messages', 'history_at'), ('webhook_attempts', 'history_at')) AS t(parent, key);
--> statement-breakpoint
-- Room on each page of the log's days for a message's new version. With no
-- index on the columns an outcome changes, recording it updates the message
-- in place (a HOT update: no new entry in any of its indexes) when its page
-- has room. Set on the days made above, days made later take it from the
-- newest (history_partition_create).
DO $$
DECLARE
  day regclass;
BEGIN
  FOR day IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'webhook_messages'::regclass LOOP
    EXECUTE format('ALTER TABLE %s SET (fillfactor = 90)', day);
  END LOOP;
END $$;
--> statement-breakpoint
-- At most one submitted, scored and ready event per attempt, across days: the
-- (candidate, type) slots in events_once_per_attempt, taken once per INSERT
-- statement (a bulk import's statement of thousands of events takes all its
-- slots in one set-based insert; a row trigger cost a bulk import 14 to 19%
-- of its time). An event of a once-per-attempt type whose slot belongs to
-- another event fails the statement with a unique violation on
-- events_once_per_attempt_key, two of them in one statement included; a
-- concurrent writer of the same slot waits for the first transaction to end
-- (ON CONFLICT), then fails if it committed. Rows moved out of the DEFAULT
-- partition are inserted into their day's partition directly, which fires no
-- trigger of the parent's: they keep their slots.
CREATE FUNCTION events_once_per_attempt() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  taken record;
BEGIN
  INSERT INTO events_once_per_attempt (candidate_id, type, event_id)
  SELECT candidate_id, type, id FROM inserted_events
  WHERE type IN ('candidate.submitted', 'candidate.scored', 'candidate.ready')
  ON CONFLICT (candidate_id, type) DO NOTHING;
  SELECT i.candidate_id, i.type INTO taken
  FROM inserted_events i JOIN events_once_per_attempt o ON o.candidate_id = i.candidate_id AND o.type = i.type
  WHERE o.event_id <> i.id
  LIMIT 1;
  IF FOUND THEN
    RAISE unique_violation USING
      MESSAGE = 'duplicate key value violates unique constraint "events_once_per_attempt_key"',
      DETAIL = format('Key (candidate_id, type)=(%s, %s) already exists.', taken.candidate_id, taken.type),
      CONSTRAINT = 'events_once_per_attempt_key', TABLE = 'events';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "events_once_per_attempt" AFTER INSERT ON "events"
  REFERENCING NEW TABLE AS inserted_events
  FOR EACH STATEMENT EXECUTE FUNCTION events_once_per_attempt();
--> statement-breakpoint
-- The queue's rows are written two or three times each within seconds
-- (queued, claimed, ended): vacuum it after a few hundred dead rows, not after
-- a fifth of the table, and without the cost delay, so the claim's index stays
-- free of dead entries (as Hatchet does for its queue items). The paces' rows
-- are rewritten at every claim of a rate-limited webhook.
ALTER TABLE "webhook_queue" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 500, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 1000, autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 1000, autovacuum_vacuum_cost_delay = 0, fillfactor = 80);
--> statement-breakpoint
ALTER TABLE "webhook_send_paces" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 100, autovacuum_vacuum_cost_delay = 0, fillfactor = 50);
