CREATE TABLE "lead_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor_id" uuid,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"submission_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lead_events_kind_check" CHECK ("lead_events"."kind" in ('inquiry', 'appointment', 'owner', 'follow_up', 'merged', 'imported'))
);
--> statement-breakpoint
CREATE TABLE "lead_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_id" uuid NOT NULL,
	"author_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lead_notes_body_check" CHECK (length("lead_notes"."body") between 1 and 20000)
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
-- "Contacted" becomes derived from the status. A New lead marked contacted keeps that fact as
-- its status (and in its history); every other lead past New was contacted by definition.
WITH moved AS (
  UPDATE "leads" SET "status" = 'Contacted' WHERE "status" = 'New' AND "contacted" RETURNING "id"
)
INSERT INTO "lead_status_changes" ("lead_id", "from_status", "to_status") SELECT "id", 'New', 'Contacted' FROM moved;--> statement-breakpoint
ALTER TABLE "leads" ALTER COLUMN "contacted" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "leads" drop column "contacted";--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "contacted" boolean GENERATED ALWAYS AS (status <> 'New') STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "changed_by" uuid;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "owner_id" uuid;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "property_address" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "target_closing_date" date;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "estimated_fee_cents" bigint;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "follow_up_on" date;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "follow_up_note" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "follow_up_notified_on" date;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "lead_id" uuid;--> statement-breakpoint
ALTER TABLE "lead_events" ADD CONSTRAINT "lead_events_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_events" ADD CONSTRAINT "lead_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_notes" ADD CONSTRAINT "lead_notes_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_notes" ADD CONSTRAINT "lead_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_events_lead_created_idx" ON "lead_events" USING btree ("lead_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "lead_events_submission_id_key" ON "lead_events" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "lead_notes_lead_created_idx" ON "lead_notes" USING btree ("lead_id","created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leads_email_idx" ON "leads" USING btree ("email");--> statement-breakpoint
CREATE INDEX "leads_owner_created_idx" ON "leads" USING btree ("owner_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_full_name_idx" ON "leads" USING btree ("full_name","id");--> statement-breakpoint
CREATE INDEX "leads_follow_up_on_idx" ON "leads" USING btree ("follow_up_on","id") WHERE "leads"."follow_up_on" is not null;--> statement-breakpoint
CREATE INDEX "notifications_lead_id_idx" ON "notifications" USING btree ("lead_id");--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_property_address_check" CHECK ("leads"."property_address" is null or length("leads"."property_address") between 1 and 500);--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_estimated_fee_check" CHECK ("leads"."estimated_fee_cents" is null or "leads"."estimated_fee_cents" between 0 and 100000000000);--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_follow_up_note_check" CHECK ("leads"."follow_up_note" is null or length("leads"."follow_up_note") <= 200);--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_follow_up_note_needs_date" CHECK ("leads"."follow_up_note" is null or "leads"."follow_up_on" is not null);--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('lead', 'appointment', 'booking', 'follow_up'));--> statement-breakpoint
-- Notifications written before they named their lead: the "New lead: Name (email)" ones find it by their text.
UPDATE "notifications" n SET "lead_id" = l."id" FROM "leads" l
  WHERE n."type" = 'lead' AND n."lead_id" IS NULL AND n."message" = 'New lead: ' || l."full_name" || ' (' || l."email" || ')';
--> statement-breakpoint
-- The live notification carries its lead, so a click opens it.
CREATE OR REPLACE FUNCTION crm_notify_notification() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('crm_notifications', json_build_object(
    'user_id', NEW.user_id,
    'notification', json_build_object(
      'id', NEW.id,
      'type', NEW.type,
      'message', left(NEW.message, 2000),
      'read', NEW.read,
      'lead_id', NEW.lead_id,
      'created_at', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    )
  )::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A lead's timeline learns of its appointments here, whoever changes them (staff, the visitor's
-- booking link, a job): scheduled (or given to this lead), moved, cancelled, completed.
-- A lead_id changed by a merge or an erase is not news: the merge moves the old entries.
CREATE OR REPLACE FUNCTION crm_appointment_timeline() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  action text;
BEGIN
  IF NEW.lead_id IS NULL THEN
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' OR OLD.lead_id IS NULL THEN
    action := 'scheduled';
  ELSIF OLD.lead_id <> NEW.lead_id THEN
    RETURN NULL;
  ELSIF OLD.status <> NEW.status THEN
    action := CASE NEW.status WHEN 'scheduled' THEN 'scheduled' ELSE NEW.status END;
  ELSIF OLD.date <> NEW.date OR OLD.time <> NEW.time THEN
    action := 'moved';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO lead_events (lead_id, kind, actor_id, data) VALUES (NEW.lead_id, 'appointment', NEW.changed_by,
    jsonb_build_object(
      'action', action,
      'appointment_id', NEW.id,
      'type', NEW.type,
      'date', NEW.date,
      'time', to_char(NEW.time, 'HH24:MI'),
      'from_date', CASE WHEN action = 'moved' THEN OLD.date END,
      'from_time', CASE WHEN action = 'moved' THEN to_char(OLD.time, 'HH24:MI') END,
      'by', CASE WHEN NEW.changed_by IS NOT NULL THEN 'staff'
                 WHEN action = 'cancelled' AND NEW.cancelled_by = 'lead' THEN 'lead'
                 WHEN NEW.source = 'booking' AND TG_OP = 'INSERT' THEN 'lead'
                 WHEN action = 'moved' AND NEW.source = 'booking' THEN 'lead'
                 ELSE 'staff' END));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER appointments_timeline AFTER INSERT OR UPDATE ON appointments
  FOR EACH ROW EXECUTE FUNCTION crm_appointment_timeline();
--> statement-breakpoint
-- Appointments made before the timeline existed appear on it as scheduled, when they were made.
INSERT INTO lead_events (lead_id, kind, data, created_at)
  SELECT a.lead_id, 'appointment', jsonb_build_object('action', 'scheduled', 'appointment_id', a.id, 'type', a.type,
    'date', a.date, 'time', to_char(a.time, 'HH24:MI'), 'by', CASE WHEN a.source = 'booking' THEN 'lead' ELSE 'staff' END), a.created_at
  FROM appointments a WHERE a.lead_id IS NOT NULL;
--> statement-breakpoint
-- Live lists: any change to leads (or what their pages show) or appointments is announced on
-- crm_changes when it commits; every process tells its open streams, whose browsers refetch.
-- One notification per statement (PostgreSQL folds equal ones in a transaction), not per row.
CREATE OR REPLACE FUNCTION crm_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('crm_changes', TG_ARGV[0]);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER leads_changed AFTER INSERT OR UPDATE OR DELETE ON leads FOR EACH STATEMENT EXECUTE FUNCTION crm_notify_change('leads');
--> statement-breakpoint
CREATE TRIGGER lead_notes_changed AFTER INSERT OR UPDATE OR DELETE ON lead_notes FOR EACH STATEMENT EXECUTE FUNCTION crm_notify_change('leads');
--> statement-breakpoint
CREATE TRIGGER lead_events_changed AFTER INSERT OR UPDATE OR DELETE ON lead_events FOR EACH STATEMENT EXECUTE FUNCTION crm_notify_change('leads');
--> statement-breakpoint
CREATE TRIGGER appointments_changed AFTER INSERT OR UPDATE OR DELETE ON appointments FOR EACH STATEMENT EXECUTE FUNCTION crm_notify_change('appointments');
