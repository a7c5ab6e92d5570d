CREATE TABLE "analytics_hourly_visits" (
	"hour" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"utm_source" text NOT NULL,
	"utm_medium" text NOT NULL,
	"utm_campaign" text NOT NULL,
	"landing_page" text NOT NULL,
	"visitors" integer DEFAULT 0 NOT NULL,
	"saw_form" integer DEFAULT 0 NOT NULL,
	"started_form" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_hourly_visits_hour_source_utm_source_utm_medium_utm_campaign_landing_page_pk" PRIMARY KEY("hour","source","utm_source","utm_medium","utm_campaign","landing_page")
);
--> statement-breakpoint
ALTER TABLE "analytics_events" DROP CONSTRAINT "analytics_events_type_check";--> statement-breakpoint
ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_check";--> statement-breakpoint
ALTER TABLE "analytics_sessions" ADD COLUMN "first_hour" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "analytics_sessions" ADD COLUMN "form_views" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_sessions" ADD COLUMN "form_starts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "visit_hour" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_weekly_report" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "leads_visit_hour_idx" ON "leads" USING btree ("visit_hour") WHERE "leads"."visit_hour" is not null;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD CONSTRAINT "analytics_events_type_check" CHECK ("analytics_events"."event_type" in ('pageview', 'heartbeat', 'time_spent', 'form_view', 'form_start'));--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_check" CHECK ("emails"."kind" in ('new-lead', 'lead-acknowledgement', 'appointment', 'appointment-reminder', 'test', 'invite', 'password-reset', 'weekly-report'));--> statement-breakpoint
-- Backfill, by the rules of insertAnalyticsEvents: a session's first hour is that of its first
-- recorded page view (its last active hour when retention has deleted those events).
UPDATE "analytics_sessions" s SET "first_hour" = coalesce(f."first_hour", s."last_hour")
FROM (
  SELECT "session_id", min(date_trunc('hour', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') FILTER (WHERE "event_type" = 'pageview') AS "first_hour"
  FROM "analytics_events" GROUP BY "session_id"
) f
WHERE f."session_id" = s."session_id" AND s."page_views" > 0;
--> statement-breakpoint
UPDATE "analytics_sessions" SET "first_hour" = "last_hour" WHERE "first_hour" IS NULL AND "page_views" > 0;
--> statement-breakpoint
INSERT INTO "analytics_hourly_visits" ("hour", "source", "utm_source", "utm_medium", "utm_campaign", "landing_page", "visitors")
SELECT "first_hour", coalesce("source", ''), coalesce("utm_source", ''), coalesce("utm_medium", ''), coalesce("utm_campaign", ''),
       coalesce("landing_page", ''), count(*)
FROM "analytics_sessions" WHERE "first_hour" IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
UPDATE "leads" l SET "visit_hour" = s."first_hour" FROM "analytics_sessions" s WHERE s."session_id" = l."analytics_session_id";
