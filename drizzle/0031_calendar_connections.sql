CREATE TABLE "calendar_busy" (
	"connection_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	CONSTRAINT "calendar_busy_connection_id_starts_at_pk" PRIMARY KEY("connection_id","starts_at"),
	CONSTRAINT "calendar_busy_order_check" CHECK ("calendar_busy"."ends_at" > "calendar_busy"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "calendar_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"secret" text NOT NULL,
	"calendars" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"busy_calendars" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"write_calendar" text,
	"last_synced_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_error" text,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"failure_notified_at" timestamp with time zone,
	"busy_digest" text,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_connections_kind_check" CHECK ("calendar_connections"."kind" in ('ics', 'caldav'))
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "booking_holds" ADD COLUMN "host_id" uuid;--> statement-breakpoint
ALTER TABLE "calendar_busy" ADD CONSTRAINT "calendar_busy_connection_id_calendar_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."calendar_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_busy" ADD CONSTRAINT "calendar_busy_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD CONSTRAINT "calendar_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_busy_user_idx" ON "calendar_busy" USING btree ("user_id","starts_at");--> statement-breakpoint
CREATE INDEX "calendar_connections_user_idx" ON "calendar_connections" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "calendar_connections_due_idx" ON "calendar_connections" USING btree ("last_attempt_at");--> statement-breakpoint
ALTER TABLE "booking_holds" ADD CONSTRAINT "booking_holds_host_id_users_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('lead', 'appointment', 'booking', 'follow_up', 'calendar'));--> statement-breakpoint
-- Busy times read from an outside calendar change the open times: a sync that rewrites them
-- (it does only when they changed) or a removed connection moves the availability version.
CREATE CONSTRAINT TRIGGER calendar_busy_availability_changed AFTER INSERT OR DELETE ON calendar_busy
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION crm_bump_availability();--> statement-breakpoint
CREATE TRIGGER calendar_busy_availability_truncated AFTER TRUNCATE ON calendar_busy
  FOR EACH STATEMENT EXECUTE FUNCTION crm_bump_availability();
