ALTER TABLE "appointments" ADD COLUMN "visitor_time_zone" text;--> statement-breakpoint
ALTER TABLE "booking_holds" ADD COLUMN "visitor_time_zone" text;