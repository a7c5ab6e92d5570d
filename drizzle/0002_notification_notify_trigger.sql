-- Realtime: every new notification is announced on channel crm_notifications when its
-- transaction commits, so every app process (LISTEN) can push it to that user's browsers.
CREATE OR REPLACE FUNCTION crm_notify_notification() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('crm_notifications', json_build_object(
    'user_id', NEW.user_id,
    'notification', json_build_object(
      'id', NEW.id,
      'type', NEW.type,
      'message', left(NEW.message, 2000),
      'read', NEW.read,
      'created_at', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    )
  )::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER notifications_notify AFTER INSERT ON notifications
  FOR EACH ROW EXECUTE FUNCTION crm_notify_notification();
