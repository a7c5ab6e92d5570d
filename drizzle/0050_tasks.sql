CREATE TABLE "lead_stage_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_id" uuid NOT NULL,
	"from_stage_id" uuid,
	"to_stage_id" uuid,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_id" uuid NOT NULL,
	"type" text NOT NULL,
	"title" text,
	"due_at" timestamp with time zone NOT NULL,
	"assignee_id" uuid,
	"done_at" timestamp with time zone,
	"done_by" uuid,
	"notified_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lead_tasks_type_check" CHECK ("lead_tasks"."type" in ('call', 'email', 'meeting', 'todo')),
	CONSTRAINT "lead_tasks_title_check" CHECK ("lead_tasks"."title" is null or char_length("lead_tasks"."title") between 1 and 200),
	CONSTRAINT "lead_tasks_done_check" CHECK ("lead_tasks"."done_by" is null or "lead_tasks"."done_at" is not null)
);
--> statement-breakpoint
ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_check";--> statement-breakpoint
ALTER TABLE "lead_events" DROP CONSTRAINT "lead_events_kind_check";--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "stage_entered_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_task_digest" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lead_stage_changes" ADD CONSTRAINT "lead_stage_changes_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_stage_changes" ADD CONSTRAINT "lead_stage_changes_from_stage_id_pipeline_stages_id_fk" FOREIGN KEY ("from_stage_id") REFERENCES "public"."pipeline_stages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_stage_changes" ADD CONSTRAINT "lead_stage_changes_to_stage_id_pipeline_stages_id_fk" FOREIGN KEY ("to_stage_id") REFERENCES "public"."pipeline_stages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_tasks" ADD CONSTRAINT "lead_tasks_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_tasks" ADD CONSTRAINT "lead_tasks_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_tasks" ADD CONSTRAINT "lead_tasks_done_by_users_id_fk" FOREIGN KEY ("done_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_tasks" ADD CONSTRAINT "lead_tasks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_stage_changes_lead_idx" ON "lead_stage_changes" USING btree ("lead_id","changed_at");--> statement-breakpoint
CREATE INDEX "lead_tasks_lead_idx" ON "lead_tasks" USING btree ("lead_id","due_at","id");--> statement-breakpoint
CREATE INDEX "lead_tasks_open_assignee_idx" ON "lead_tasks" USING btree ("assignee_id","due_at","id") WHERE "lead_tasks"."done_at" is null;--> statement-breakpoint
CREATE INDEX "lead_tasks_open_due_idx" ON "lead_tasks" USING btree ("due_at","id") WHERE "lead_tasks"."done_at" is null;--> statement-breakpoint
CREATE INDEX "lead_tasks_done_assignee_idx" ON "lead_tasks" USING btree ("assignee_id","done_at" DESC NULLS LAST,"id") WHERE "lead_tasks"."done_at" is not null;--> statement-breakpoint
CREATE INDEX "lead_tasks_done_idx" ON "lead_tasks" USING btree ("done_at" DESC NULLS LAST,"id") WHERE "lead_tasks"."done_at" is not null;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_check" CHECK ("emails"."kind" in ('new-lead', 'lead-acknowledgement', 'appointment', 'appointment-reminder', 'test', 'invite', 'password-reset', 'weekly-report', 'booking-confirmation', 'lead-message', 'lead-reply', 'task-digest'));--> statement-breakpoint
ALTER TABLE "lead_events" ADD CONSTRAINT "lead_events_kind_check" CHECK ("lead_events"."kind" in ('inquiry', 'appointment', 'owner', 'follow_up', 'merged', 'imported', 'stage', 'call', 'task'));--> statement-breakpoint
-- The stage history so far, from the status history: each lead entered its first status's
-- first stage when it was made, then each status's first stage, ending in its stage of today.
WITH ch AS (
  SELECT c.id, c.lead_id, c.from_status, c.to_status, c.changed_at,
    row_number() OVER (PARTITION BY c.lead_id ORDER BY c.changed_at, c.id) AS n,
    count(*) OVER (PARTITION BY c.lead_id) AS total
  FROM lead_status_changes c
), steps AS (
  SELECT l.id AS lead_id, l.created_at AS at, 0::bigint AS n,
    CASE WHEN f.from_status IS NULL THEN l.stage_id
      ELSE (SELECT s.id FROM pipeline_stages s WHERE s.status = f.from_status ORDER BY s.position, s.id LIMIT 1) END AS stage_id
  FROM leads l LEFT JOIN ch f ON f.lead_id = l.id AND f.n = 1
  UNION ALL
  SELECT ch.lead_id, ch.changed_at, ch.n,
    CASE WHEN ch.n = ch.total AND ch.to_status = l.status THEN l.stage_id
      ELSE (SELECT s.id FROM pipeline_stages s WHERE s.status = ch.to_status ORDER BY s.position, s.id LIMIT 1) END
  FROM ch JOIN leads l ON l.id = ch.lead_id
)
INSERT INTO lead_stage_changes (lead_id, from_stage_id, to_stage_id, changed_at)
SELECT lead_id, lag(stage_id) OVER (PARTITION BY lead_id ORDER BY at, n), stage_id, at FROM steps;
--> statement-breakpoint
UPDATE leads l SET stage_entered_at = x.at
FROM (SELECT lead_id, max(changed_at) AS at FROM lead_stage_changes GROUP BY lead_id) x WHERE x.lead_id = l.id;
--> statement-breakpoint
CREATE INDEX "lead_stage_changes_to_changed_idx" ON "lead_stage_changes" USING btree ("to_stage_id","changed_at");
--> statement-breakpoint
-- The stage sync of migration 0046, now also dating the lead's entry into its stage.
CREATE OR REPLACE FUNCTION leads_stage_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.stage_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.stage_id IS DISTINCT FROM OLD.stage_id) THEN
    NEW.status := (SELECT status FROM pipeline_stages WHERE id = NEW.stage_id);
    IF NEW.status IS NULL THEN
      RAISE EXCEPTION 'no such pipeline stage' USING ERRCODE = 'foreign_key_violation';
    END IF;
  ELSIF NEW.stage_id IS NULL OR NEW.status IS DISTINCT FROM OLD.status THEN
    NEW.stage_id := (SELECT id FROM pipeline_stages WHERE status = NEW.status ORDER BY position, id LIMIT 1);
  END IF;
  IF NEW.status = 'Dropped' THEN
    NEW.lost_reason := coalesce(NEW.lost_reason, 'Not given');
  ELSE
    NEW.lost_reason := NULL;
  END IF;
  IF TG_OP = 'INSERT' OR NEW.stage_id IS DISTINCT FROM OLD.stage_id THEN
    NEW.stage_entered_at := now();
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
-- Every stage entered, for the stage-to-stage conversion.
CREATE OR REPLACE FUNCTION leads_stage_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO lead_stage_changes (lead_id, to_stage_id) VALUES (NEW.id, NEW.stage_id);
  ELSIF NEW.stage_id IS DISTINCT FROM OLD.stage_id THEN
    INSERT INTO lead_stage_changes (lead_id, from_stage_id, to_stage_id) VALUES (NEW.id, OLD.stage_id, NEW.stage_id);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER leads_stage_history AFTER INSERT OR UPDATE OF stage_id, status ON leads
  FOR EACH ROW EXECUTE FUNCTION leads_stage_history();
--> statement-breakpoint
-- Today's next steps become tasks: a To-do on that day, for the lead's owner. The business time
-- zone is not known here, so noon UTC stands for the day (the same date from UTC-11 to UTC+11);
-- a date already told is not told again.
INSERT INTO lead_tasks (lead_id, type, title, due_at, assignee_id, notified_at)
SELECT id, 'todo', follow_up_note, (follow_up_on + time '12:00') AT TIME ZONE 'UTC', owner_id,
  CASE WHEN follow_up_notified_on = follow_up_on THEN now() END
FROM leads WHERE follow_up_on IS NOT NULL;
--> statement-breakpoint
CREATE TRIGGER lead_tasks_changed AFTER INSERT OR UPDATE OR DELETE ON lead_tasks FOR EACH ROW EXECUTE FUNCTION crm_notify_change('leads');
