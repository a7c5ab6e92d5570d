CREATE TABLE "analytics_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"page_path" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"time_spent" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_hourly_hour_page_path_pk" PRIMARY KEY("hour","page_path")
);
--> statement-breakpoint
CREATE TABLE "analytics_sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"last_hour" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "analytics_sessions_last_hour_idx" ON "analytics_sessions" USING btree ("last_hour");--> statement-breakpoint
-- Backfill from the events already recorded, with the same rules as insertAnalyticsEvents.
INSERT INTO "analytics_hourly" ("hour", "page_path", "views", "time_spent")
SELECT date_trunc('hour', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', "page_path",
       count(*) FILTER (WHERE "event_type" = 'pageview'), coalesce(sum("time_spent"), 0)
FROM "analytics_events" GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO "analytics_sessions" ("session_id", "last_hour")
SELECT "session_id", max(date_trunc('hour', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')
FROM "analytics_events" GROUP BY 1;
