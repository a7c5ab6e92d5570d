-- Every stage a lead enters, for the stage-to-stage conversion (Analytics → Pipeline).

CREATE OR REPLACE FUNCTION leads_stage_history()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO lead_stage_changes (lead_id, to_stage_id) VALUES (NEW.id, NEW.stage_id);
  ELSIF NEW.stage_id IS DISTINCT FROM OLD.stage_id THEN
    INSERT INTO lead_stage_changes (lead_id, from_stage_id, to_stage_id) VALUES (NEW.id, OLD.stage_id, NEW.stage_id);
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER leads_stage_history AFTER INSERT OR UPDATE OF stage_id, status ON leads
  FOR EACH ROW EXECUTE FUNCTION leads_stage_history();
