-- task.due once per due time: the task job (db/queries/follow-ups-queries.ts) sets notified_at when it tells
-- the assignee.

CREATE OR REPLACE FUNCTION crm_webhooks_tasks_updated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF crm_webhook_listened('task.due') THEN
    PERFORM crm_webhook_record('task.due', array_agg(n.id ORDER BY n.id), array_agg(n.lead_id ORDER BY n.id), NULL)
    FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.notified_at IS NOT NULL AND o.notified_at IS NULL;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER lead_tasks_webhooks_updated AFTER UPDATE ON lead_tasks REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_tasks_updated();
