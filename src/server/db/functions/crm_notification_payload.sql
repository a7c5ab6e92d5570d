-- A notification as the live streams send it (realtime/notification-hub.ts): the payload of
-- notifications_notify, and of the announcements made after a commit.

CREATE OR REPLACE FUNCTION crm_notification_payload(n notifications)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN json_build_object(
    'user_id', n.user_id,
    'notification', json_build_object(
      'id', n.id,
      'type', n.type,
      'message', left(n.message, 2000),
      'read', n.read,
      'lead_id', n.lead_id,
      'created_at', to_char(n.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    )
  )::text;
END;
$function$;
