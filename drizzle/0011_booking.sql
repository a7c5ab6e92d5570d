CREATE TABLE "booking_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_settings_one_row" CHECK ("booking_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "booking_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"lead_id" uuid NOT NULL,
	"appointment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "duration_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "location" text;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "status" text DEFAULT 'scheduled' NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "source" text DEFAULT 'staff' NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "buffer_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "overlap_allowed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_tokens" ADD CONSTRAINT "booking_tokens_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_tokens" ADD CONSTRAINT "booking_tokens_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_tokens_lead_id_idx" ON "booking_tokens" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "booking_tokens_expires_at_idx" ON "booking_tokens" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_status_check" CHECK ("appointments"."status" in ('scheduled', 'cancelled', 'completed'));--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_cancelled_by_check" CHECK ("appointments"."cancelled_by" is null or "appointments"."cancelled_by" in ('lead', 'staff'));--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_source_check" CHECK ("appointments"."source" in ('staff', 'booking'));--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_duration_check" CHECK ("appointments"."duration_minutes" between 5 and 720);--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_buffer_check" CHECK ("appointments"."buffer_minutes" between 0 and 240);--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_location_check" CHECK ("appointments"."location" is null or length("appointments"."location") <= 500);--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('lead', 'appointment', 'booking'));--> statement-breakpoint
-- Each appointment's time on the business clock, from its start to its end plus its buffer.
ALTER TABLE "appointments" ADD COLUMN "blocks" tsrange GENERATED ALWAYS AS (tsrange("date" + "time", "date" + "time" + make_interval(mins => "duration_minutes" + "buffer_minutes"))) STORED;--> statement-breakpoint
-- Appointments made before this overlapped freely: each one that overlaps an earlier one is
-- marked as allowed to (it starts before the latest end of those that start before it), so the
-- constraint below holds for what is there.
UPDATE "appointments" a SET "overlap_allowed" = true
  FROM (SELECT "id", lower("blocks") < max(upper("blocks")) OVER (ORDER BY lower("blocks"), "id" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS overlaps
        FROM "appointments") o
  WHERE o."id" = a."id" AND o.overlaps;--> statement-breakpoint
-- No two scheduled appointments overlap unless staff chose to: two visitors booking one slot
-- at the same moment, in any process, get it once.
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_no_overlap" EXCLUDE USING gist ("blocks" WITH &&) WHERE ("status" = 'scheduled' AND NOT "overlap_allowed");
