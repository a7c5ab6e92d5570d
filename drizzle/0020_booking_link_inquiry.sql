ALTER TABLE "appointments" ADD COLUMN "inquiry_id" uuid;--> statement-breakpoint
ALTER TABLE "booking_tokens" ADD COLUMN "inquiry_id" uuid;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_inquiry_id_lead_events_id_fk" FOREIGN KEY ("inquiry_id") REFERENCES "public"."lead_events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_tokens" ADD CONSTRAINT "booking_tokens_inquiry_id_lead_events_id_fk" FOREIGN KEY ("inquiry_id") REFERENCES "public"."lead_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointments_inquiry_id_idx" ON "appointments" USING btree ("inquiry_id") WHERE "appointments"."inquiry_id" is not null;--> statement-breakpoint
CREATE INDEX "booking_tokens_inquiry_id_idx" ON "booking_tokens" USING btree ("inquiry_id");--> statement-breakpoint-- Links made by a repeat form before this version: its inquiry was inserted by the same
-- statement (the same transaction time) on the same lead, or, for a lead merged into another,
-- is the inquiry the merge made of that lead's own form, dated when it came. A link made when
-- the lead was created keeps null (it shows the lead).
UPDATE "booking_tokens" t SET "inquiry_id" = (
  SELECT e."id" FROM "lead_events" e
  WHERE e."lead_id" = t."lead_id" AND e."kind" = 'inquiry' AND e."created_at" = t."created_at"
  ORDER BY e."id" LIMIT 1)
WHERE NOT EXISTS (SELECT 1 FROM "leads" l WHERE l."id" = t."lead_id" AND l."created_at" = t."created_at");
--> statement-breakpoint
UPDATE "appointments" a SET "inquiry_id" = t."inquiry_id"
FROM "booking_tokens" t WHERE t."appointment_id" = a."id" AND t."inquiry_id" IS NOT NULL;
