DROP INDEX "interviews_list_idx";--> statement-breakpoint
DROP INDEX "interviews_list_by_status_idx";--> statement-breakpoint
DROP INDEX "candidates_submitted_idx";--> statement-breakpoint
DROP INDEX "candidates_interview_submitted_idx";--> statement-breakpoint
DROP INDEX "candidates_started_idx";--> statement-breakpoint
DROP INDEX "candidates_interview_started_idx";--> statement-breakpoint
DROP INDEX "candidates_in_progress_idx";--> statement-breakpoint
CREATE INDEX "interviews_list_idx" ON "interviews" USING btree ("company_id","created_at","id") WHERE "interviews"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "interviews_list_by_status_idx" ON "interviews" USING btree ("company_id","status","created_at","id") WHERE "interviews"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "candidates_submitted_idx" ON "candidates" USING btree ("company_id","submitted_at","id") WHERE not "candidates"."is_preview" and "candidates"."submitted_at" is not null;--> statement-breakpoint
CREATE INDEX "candidates_interview_submitted_idx" ON "candidates" USING btree ("company_id","interview_id","submitted_at","id") WHERE not "candidates"."is_preview" and "candidates"."submitted_at" is not null;--> statement-breakpoint
CREATE INDEX "candidates_started_idx" ON "candidates" USING btree ("company_id","started_at","id") WHERE not "candidates"."is_preview";--> statement-breakpoint
CREATE INDEX "candidates_interview_started_idx" ON "candidates" USING btree ("company_id","interview_id","started_at","id") WHERE not "candidates"."is_preview";--> statement-breakpoint
CREATE INDEX "candidates_in_progress_idx" ON "candidates" USING btree ("company_id","started_at","id") WHERE not "candidates"."is_preview" and "candidates"."status" = 'in_progress';