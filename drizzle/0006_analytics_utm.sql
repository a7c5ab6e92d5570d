ALTER TABLE "analytics_events" ADD COLUMN "utm_source" text;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD COLUMN "utm_medium" text;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD COLUMN "utm_campaign" text;