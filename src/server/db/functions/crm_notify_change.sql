-- Tells every app process (LISTEN crm_changes) which resource changed, so open pages refetch it.
-- A transaction that set crm.live = 'after_commit' stays silent here and announces what it changed
-- itself once committed (realtime/after-commit.ts): a transaction that NOTIFYs holds one
-- database-wide lock from its commit until its WAL is flushed, so notifying commits go one at a time;
-- the public form's transactions are announced together instead (docs/decisions/013-prepared-statements-and-announcing-after-commit.md).

CREATE OR REPLACE FUNCTION crm_notify_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF current_setting('crm.live', true) IS DISTINCT FROM 'after_commit' THEN
    PERFORM pg_notify('crm_changes', TG_ARGV[0]);
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER appointments_changed AFTER INSERT OR UPDATE OR DELETE ON appointments FOR EACH ROW EXECUTE FUNCTION crm_notify_change('appointments');

CREATE OR REPLACE TRIGGER emails_lead_status_changed AFTER UPDATE OF status ON emails FOR EACH ROW
  WHEN (NEW.lead_id IS NOT NULL AND NEW.kind = 'lead-message' AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION crm_notify_change('leads');

CREATE OR REPLACE TRIGGER inbound_emails_changed AFTER INSERT OR UPDATE OF lead_id, read_at, dismissed_at OR DELETE ON inbound_emails
  FOR EACH STATEMENT EXECUTE FUNCTION crm_notify_change('leads');

CREATE OR REPLACE TRIGGER lead_events_changed AFTER INSERT OR UPDATE OR DELETE ON lead_events FOR EACH ROW EXECUTE FUNCTION crm_notify_change('leads');

CREATE OR REPLACE TRIGGER lead_notes_changed AFTER INSERT OR UPDATE OR DELETE ON lead_notes FOR EACH ROW EXECUTE FUNCTION crm_notify_change('leads');

CREATE OR REPLACE TRIGGER lead_tasks_changed AFTER INSERT OR UPDATE OR DELETE ON lead_tasks FOR EACH ROW EXECUTE FUNCTION crm_notify_change('leads');

CREATE OR REPLACE TRIGGER leads_changed AFTER INSERT OR UPDATE OR DELETE ON leads FOR EACH ROW EXECUTE FUNCTION crm_notify_change('leads');
