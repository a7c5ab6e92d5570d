-- A lead's timeline learns of its appointments here, whoever changes them (staff, the visitor's
-- booking link, a job): scheduled (or given to this lead), moved, cancelled, completed. A lead_id
-- changed by a merge or an erase is not news: the merge moves the old entries itself.

CREATE OR REPLACE FUNCTION crm_appointment_timeline()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE TRIGGER appointments_timeline AFTER INSERT OR UPDATE ON appointments
  FOR EACH ROW EXECUTE FUNCTION crm_appointment_timeline();
