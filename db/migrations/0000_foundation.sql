CREATE TABLE "companies" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"suspended_at" timestamp (3) with time zone,
	"rate_limit_per_key" integer,
	"rate_limit_per_company" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
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
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
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
CREATE TABLE "transcript_entries" (
	"candidate_id" text NOT NULL,
	"index" integer NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"speaking_seconds" integer NOT NULL,
	CONSTRAINT "transcript_entries_candidate_id_index_pk" PRIMARY KEY("candidate_id","index")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"candidate_id" text NOT NULL,
	"interview_id" text NOT NULL,
	"type" text NOT NULL,
	"change" jsonb,
	"created_at" timestamp (3) with time zone NOT NULL,
	"tx_id" bigint DEFAULT (pg_current_xact_id()::text)::bigint NOT NULL,
	"seq" bigserial NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_questions" ADD CONSTRAINT "interview_questions_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_previewed_by_user_id_users_id_fk" FOREIGN KEY ("previewed_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_answers" ADD CONSTRAINT "candidate_answers_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcript_entries" ADD CONSTRAINT "transcript_entries_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_company_idx" ON "users" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "api_keys_company_idx" ON "api_keys" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "interviews_list_idx" ON "interviews" USING btree ("company_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "interviews"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "interviews_list_by_status_idx" ON "interviews" USING btree ("company_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "interviews"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "interview_questions_position_key" ON "interview_questions" USING btree ("interview_id","position");--> statement-breakpoint
CREATE INDEX "candidates_submitted_idx" ON "candidates" USING btree ("company_id","submitted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "candidates"."is_preview" and "candidates"."submitted_at" is not null;--> statement-breakpoint
CREATE INDEX "candidates_interview_submitted_idx" ON "candidates" USING btree ("company_id","interview_id","submitted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "candidates"."is_preview" and "candidates"."submitted_at" is not null;--> statement-breakpoint
CREATE INDEX "candidates_started_idx" ON "candidates" USING btree ("company_id","started_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "candidates"."is_preview";--> statement-breakpoint
CREATE INDEX "candidates_interview_started_idx" ON "candidates" USING btree ("company_id","interview_id","started_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "candidates"."is_preview";--> statement-breakpoint
CREATE INDEX "candidates_in_progress_idx" ON "candidates" USING btree ("company_id","started_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "candidates"."is_preview" and "candidates"."status" = 'in_progress';--> statement-breakpoint
CREATE INDEX "candidates_attempts_idx" ON "candidates" USING btree ("interview_id",lower("email"),"attempt");--> statement-breakpoint
CREATE INDEX "files_candidate_idx" ON "files" USING btree ("candidate_id","created_at") WHERE "files"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "events_feed_idx" ON "events" USING btree ("company_id","tx_id","seq");--> statement-breakpoint
CREATE INDEX "events_interview_feed_idx" ON "events" USING btree ("company_id","interview_id","tx_id","seq");--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "events_once_per_attempt_key" ON "events" USING btree ("candidate_id","type") WHERE "events"."type" <> 'candidate.status_changed';