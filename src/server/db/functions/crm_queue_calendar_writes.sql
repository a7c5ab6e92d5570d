-- Every change of an appointment that its host's calendar copy shows queues that copy, in the
-- change's own transaction: a copy already written (or queued) is wanted again at a new version
-- (the writer decides from the appointment as it then is whether to write, move or remove it), and a
-- scheduled call whose host writes booked calls to a CalDAV calendar gets one
-- (calendars/calendar-copies.ts sends them).

CREATE OR REPLACE FUNCTION crm_queue_calendar_writes()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE calendar_writes SET version = version + 1, attempts = 0, next_attempt_at = crm_now()
      WHERE appointment_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.host_id IS NOT NULL AND NEW.status = 'scheduled' THEN
    INSERT INTO calendar_writes (appointment_id, connection_id)
      SELECT NEW.id, c.id FROM calendar_connections c
      WHERE c.user_id = NEW.host_id AND c.kind = 'caldav' AND c.write_calendar IS NOT NULL
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER appointments_calendar_copy_deleted AFTER DELETE ON appointments
  FOR EACH ROW EXECUTE FUNCTION crm_queue_calendar_writes();

CREATE OR REPLACE TRIGGER appointments_calendar_copy_inserted AFTER INSERT ON appointments
  FOR EACH ROW WHEN (NEW.host_id IS NOT NULL) EXECUTE FUNCTION crm_queue_calendar_writes();

CREATE OR REPLACE TRIGGER appointments_calendar_copy_updated AFTER UPDATE ON appointments
  FOR EACH ROW
  WHEN ((OLD.status, OLD.date, OLD.time, OLD.duration_minutes, OLD.type, OLD.location, OLD.notes, OLD.host_id, OLD.lead_id, OLD.inquiry_id)
    IS DISTINCT FROM (NEW.status, NEW.date, NEW.time, NEW.duration_minutes, NEW.type, NEW.location, NEW.notes, NEW.host_id, NEW.lead_id, NEW.inquiry_id))
  EXECUTE FUNCTION crm_queue_calendar_writes();
