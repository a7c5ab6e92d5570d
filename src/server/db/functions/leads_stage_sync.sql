-- A lead's pipeline stage and its status move together: each stage is mapped to one of the four
-- statuses (New, Contacted, Converted, Dropped), so every filter, report and API field that reads the
-- status keeps its meaning. A stage set sets the status; a status set alone moves the lead to the
-- first stage of that status. A Dropped lead always has a lost reason ("Not given" when none was
-- given), no other lead has one. The time the lead entered its stage is kept for the board.

CREATE OR REPLACE FUNCTION leads_stage_sync()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
    NEW.stage_entered_at := crm_now();
  END IF;
  RETURN NEW;
END;
$function$;

CREATE OR REPLACE TRIGGER leads_stage_sync BEFORE INSERT OR UPDATE OF status, stage_id, lost_reason ON leads
  FOR EACH ROW EXECUTE FUNCTION leads_stage_sync();
