-- appointment.booked for each scheduled call inserted. An object inserted by this statement has no
-- event of this transaction yet, so its event is recorded straight, without crm_webhook_record's check.

CREATE OR REPLACE FUNCTION crm_webhooks_appointments_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_endpoints WHERE paused_at IS NULL AND events @> ARRAY['appointment.booked']) THEN
    INSERT INTO webhook_events (type, object_id, lead_id)
    SELECT 'appointment.booked', n.id, n.lead_id FROM new_rows n WHERE n.status = 'scheduled' ORDER BY n.id;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER appointments_webhooks_inserted AFTER INSERT ON appointments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_appointments_inserted();
