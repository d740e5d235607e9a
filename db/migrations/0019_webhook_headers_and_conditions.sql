-- IF NOT EXISTS: a database migrated while 0019 was dated before 0018 has both columns already and runs it again after 0018.
ALTER TABLE "webhooks" ADD COLUMN IF NOT EXISTS "custom_headers_ciphertext" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN IF NOT EXISTS "conditions" jsonb;
