ALTER TABLE "webhooks" ADD COLUMN "custom_headers_ciphertext" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "conditions" jsonb;