-- Phone search by digits: "4105550142", "+1 410 555 0142" or "555-0142" find a lead stored as
-- "(410) 555-0142". The trigram index serves LIKE '%digits%' (a substring, a suffix).
ALTER TABLE "leads" ADD COLUMN "phone_digits" text GENERATED ALWAYS AS (regexp_replace(phone, '[^0-9]', '', 'g')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "leads_phone_digits_trgm_idx" ON "leads" USING gin ("phone_digits" gin_trgm_ops);