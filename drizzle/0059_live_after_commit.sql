-- Live announcements after the commit, for the transactions that ask (realtime/after-commit.ts).
--
-- A transaction that NOTIFYs holds one database-wide lock from its commit until its WAL is
-- flushed, so notifying commits go one at a time. Every lead insert notified (its triggers),
-- so a burst of form submissions committed one by one. A transaction that sets
-- crm.live = 'after_commit' (set_config, local to it) keeps its triggers silent and announces
-- what it changed itself once committed, many transactions' announcements in one NOTIFYing
-- statement. Every other transaction announces through its triggers as before.
CREATE OR REPLACE FUNCTION crm_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('crm.live', true) IS DISTINCT FROM 'after_commit' THEN
    PERFORM pg_notify('crm_changes', TG_ARGV[0]);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A notification as the live streams send it: the trigger's payload, and the announcer's.
CREATE OR REPLACE FUNCTION crm_notification_payload(n notifications) RETURNS text LANGUAGE plpgsql STABLE AS $$
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
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_notify_notification() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('crm.live', true) IS DISTINCT FROM 'after_commit' THEN
    PERFORM pg_notify('crm_notifications', crm_notification_payload(NEW));
  END IF;
  RETURN NULL;
END;
$$;
