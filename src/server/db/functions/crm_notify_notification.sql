-- A new notification goes to its user's open streams on every app process (LISTEN
-- crm_notifications), unless its transaction announces after its commit (see crm_notify_change).

CREATE OR REPLACE FUNCTION crm_notify_notification()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF current_setting('crm.live', true) IS DISTINCT FROM 'after_commit' THEN
    PERFORM pg_notify('crm_notifications', crm_notification_payload(NEW));
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER notifications_notify AFTER INSERT ON notifications
  FOR EACH ROW EXECUTE FUNCTION crm_notify_notification();
