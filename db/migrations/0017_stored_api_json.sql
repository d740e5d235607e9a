ALTER TABLE "candidates" ADD COLUMN "api_json" text;--> statement-breakpoint
CREATE INDEX "candidates_unrendered_idx" ON "candidates" USING btree ("id") WHERE "candidates"."api_json" is null;