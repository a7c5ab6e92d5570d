CREATE TABLE "analytics_hourly_sources" (
	"hour" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_hourly_sources_hour_kind_value_pk" PRIMARY KEY("hour","kind","value"),
	CONSTRAINT "analytics_hourly_sources_kind_check" CHECK ("analytics_hourly_sources"."kind" in ('referrer', 'device'))
);
--> statement-breakpoint
ALTER TABLE "analytics_events" ADD COLUMN "referrer_host" text;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD COLUMN "device" text;