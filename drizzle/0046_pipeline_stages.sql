CREATE TABLE "lost_reasons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lost_reasons_name_check" CHECK (length("lost_reasons"."name") between 1 and 80)
);
--> statement-breakpoint
CREATE TABLE "pipeline_stages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"position" integer NOT NULL,
	"probability" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pipeline_stages_status_check" CHECK ("pipeline_stages"."status" in ('New', 'Contacted', 'Converted', 'Dropped')),
	CONSTRAINT "pipeline_stages_name_check" CHECK (length("pipeline_stages"."name") between 1 and 60),
	CONSTRAINT "pipeline_stages_probability_check" CHECK ("pipeline_stages"."probability" is null or ("pipeline_stages"."probability" between 0 and 100 and "pipeline_stages"."status" in ('New', 'Contacted')))
);
--> statement-breakpoint
-- The stages a new pipeline starts with, each status's in order, and the lost reasons.
INSERT INTO pipeline_stages (name, status, position, probability) VALUES
  ('New', 'New', 1, 10),
  ('Call booked', 'Contacted', 1, 25),
  ('Proposal sent', 'Contacted', 2, 50),
  ('Engaged', 'Contacted', 3, 75),
  ('Won', 'Converted', 1, NULL),
  ('Lost', 'Dropped', 1, NULL);--> statement-breakpoint
INSERT INTO lost_reasons (name, position) VALUES
  ('Price', 1), ('Chose another firm', 2), ('Deal fell through', 3), ('No response', 4), ('Not a fit', 5);--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "stage_id" uuid;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "lost_reason" text;--> statement-breakpoint
-- Every lead to its status's first stage; a dropped one lost for a reason nobody gave.
UPDATE leads l SET stage_id = (SELECT s.id FROM pipeline_stages s WHERE s.status = l.status ORDER BY s.position LIMIT 1),
  lost_reason = CASE WHEN l.status = 'Dropped' THEN 'Not given' END;--> statement-breakpoint
ALTER TABLE "leads" ALTER COLUMN "stage_id" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "lost_reasons_name_key" ON "lost_reasons" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "pipeline_stages_name_key" ON "pipeline_stages" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "pipeline_stages_order_idx" ON "pipeline_stages" USING btree ("status","position");--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_stage_id_pipeline_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."pipeline_stages"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leads_stage_idx" ON "leads" USING btree ("stage_id","created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_lost_reason_check" CHECK (("leads"."status" = 'Dropped') = ("leads"."lost_reason" is not null));--> statement-breakpoint
-- The status is always the stage's. Setting the stage sets the status; setting the status alone
-- (the status field, bulk changes, imports, the form) moves the lead to that status's first
-- stage. A lead leaving Dropped loses its lost reason; one entering it without a reason gets
-- 'Not given'. A request naming both a stage and another status is refused by the API before.
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
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER leads_stage_sync BEFORE INSERT OR UPDATE OF status, stage_id, lost_reason ON leads
  FOR EACH ROW EXECUTE FUNCTION leads_stage_sync();
