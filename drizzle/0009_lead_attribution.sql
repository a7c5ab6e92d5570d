ALTER TABLE "analytics_sessions" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "analytics_sessions" ADD COLUMN "utm_source" text;--> statement-breakpoint
ALTER TABLE "analytics_sessions" ADD COLUMN "utm_medium" text;--> statement-breakpoint
ALTER TABLE "analytics_sessions" ADD COLUMN "utm_campaign" text;--> statement-breakpoint
ALTER TABLE "analytics_sessions" ADD COLUMN "landing_page" text;--> statement-breakpoint
ALTER TABLE "analytics_sessions" ADD COLUMN "page_views" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "analytics_session_id" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "utm_source" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "utm_medium" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "utm_campaign" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "landing_page" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "pages_viewed" integer;--> statement-breakpoint
CREATE INDEX "leads_analytics_session_created_idx" ON "leads" USING btree ("created_at") WHERE "leads"."analytics_session_id" is not null;--> statement-breakpoint
-- First touch for the sessions recorded so far, by the rules of insertAnalyticsEvents.
UPDATE "analytics_sessions" s SET
  "utm_source" = f."utm_source", "utm_medium" = f."utm_medium", "utm_campaign" = f."utm_campaign",
  "landing_page" = f."landing_page", "page_views" = f."page_views"
FROM (
  SELECT "session_id",
    (array_agg("utm_source" ORDER BY "id") FILTER (WHERE "event_type" = 'pageview'))[1] AS "utm_source",
    (array_agg("utm_medium" ORDER BY "id") FILTER (WHERE "event_type" = 'pageview'))[1] AS "utm_medium",
    (array_agg("utm_campaign" ORDER BY "id") FILTER (WHERE "event_type" = 'pageview'))[1] AS "utm_campaign",
    (array_agg("page_path" ORDER BY "id") FILTER (WHERE "event_type" = 'pageview'))[1] AS "landing_page",
    (count(*) FILTER (WHERE "event_type" = 'pageview'))::int AS "page_views"
  FROM "analytics_events" GROUP BY "session_id"
) f
WHERE f."session_id" = s."session_id";
