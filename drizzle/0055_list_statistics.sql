CREATE INDEX "leads_stage_fee_idx" ON "leads" USING btree ("stage_id","estimated_fee_cents") WHERE "leads"."estimated_fee_cents" is not null;--> statement-breakpoint
-- The leads list's search ORs four patterns (name, email, phone, phone digits), each with its
-- trigram index. With the default statistics (100 histogram entries) the planner's estimate of
-- a fragment such as '555-12' swung between 2,000 and 7,000 of 100,000 leads with each ANALYZE's
-- sample, and above about 4,000 it counted the matches with a sequential scan: 44 ms against
-- 4 ms through the indexes. A 1,000-entry sample keeps the estimate steady.
ALTER TABLE "leads" ALTER COLUMN "full_name" SET STATISTICS 1000;--> statement-breakpoint
ALTER TABLE "leads" ALTER COLUMN "email" SET STATISTICS 1000;--> statement-breakpoint
ALTER TABLE "leads" ALTER COLUMN "phone" SET STATISTICS 1000;--> statement-breakpoint
ALTER TABLE "leads" ALTER COLUMN "phone_digits" SET STATISTICS 1000;
