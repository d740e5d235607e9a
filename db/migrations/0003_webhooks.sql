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
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"origin" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"candidate_id" text,
	"is_test" boolean DEFAULT false NOT NULL,
	"sample_body" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone NOT NULL,
	"attempt_started_at" timestamp (3) with time zone,
	"completed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"seq" bigserial NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"url" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"request_headers" jsonb NOT NULL,
	"response_status" integer,
	"response_headers" jsonb,
	"response_body" text,
	"succeeded" boolean NOT NULL,
	"error_class" text,
	"error_message" text,
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
	"error" text
);
--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD CONSTRAINT "webhook_messages_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_message_id_webhook_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."webhook_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhooks_company_idx" ON "webhooks" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_messages_event_key" ON "webhook_messages" USING btree ("webhook_id","event_id") WHERE "webhook_messages"."origin" = 'event';--> statement-breakpoint
CREATE INDEX "webhook_messages_chain_idx" ON "webhook_messages" USING btree ("webhook_id","candidate_id","seq") WHERE "webhook_messages"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_messages_log_idx" ON "webhook_messages" USING btree ("webhook_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_messages_due_idx" ON "webhook_messages" USING btree ("next_attempt_at") WHERE "webhook_messages"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_attempts_message_idx" ON "webhook_attempts" USING btree ("message_id","attempt");--> statement-breakpoint
CREATE INDEX "webhook_attempts_webhook_idx" ON "webhook_attempts" USING btree ("webhook_id","started_at");--> statement-breakpoint
CREATE INDEX "emails_company_idx" ON "emails" USING btree ("company_id","created_at");