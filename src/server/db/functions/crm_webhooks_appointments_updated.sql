-- appointment.cancelled and appointment.rescheduled (with the call's previous date, time, length and
-- host) for the calls a statement changed.

CREATE OR REPLACE FUNCTION crm_webhooks_appointments_updated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF crm_webhook_listened('appointment.cancelled') THEN
    PERFORM crm_webhook_record('appointment.cancelled', array_agg(n.id ORDER BY n.id), array_agg(n.lead_id ORDER BY n.id), NULL)
    FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status = 'cancelled' AND o.status <> 'cancelled';
  END IF;
  IF crm_webhook_listened('appointment.rescheduled') THEN
    PERFORM crm_webhook_record('appointment.rescheduled', array_agg(n.id ORDER BY n.id), array_agg(n.lead_id ORDER BY n.id),
      array_agg(jsonb_build_object('previous', jsonb_build_object('date', o.date, 'time', to_char(o.time, 'HH24:MI'),
        'duration_minutes', o.duration_minutes, 'host_id', o.host_id)) ORDER BY n.id))
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.status = 'scheduled' AND (n.date, n.time, n.duration_minutes, n.host_id) IS DISTINCT FROM (o.date, o.time, o.duration_minutes, o.host_id);
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER appointments_webhooks_updated AFTER UPDATE ON appointments REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_appointments_updated();
