-- Live changes are announced per changed row, not per statement: a statement that changes
-- nothing (the reminder jobs' UPDATEs every 30 seconds) no longer makes every open browser
-- refetch. PostgreSQL folds equal notifications of one transaction into one, so a bulk change
-- of 10,000 rows still sends a single 'leads'.
DROP TRIGGER IF EXISTS leads_changed ON leads;
--> statement-breakpoint
DROP TRIGGER IF EXISTS lead_notes_changed ON lead_notes;
--> statement-breakpoint
DROP TRIGGER IF EXISTS lead_events_changed ON lead_events;
--> statement-breakpoint
DROP TRIGGER IF EXISTS appointments_changed ON appointments;
--> statement-breakpoint
CREATE TRIGGER leads_changed AFTER INSERT OR UPDATE OR DELETE ON leads FOR EACH ROW EXECUTE FUNCTION crm_notify_change('leads');
--> statement-breakpoint
CREATE TRIGGER lead_notes_changed AFTER INSERT OR UPDATE OR DELETE ON lead_notes FOR EACH ROW EXECUTE FUNCTION crm_notify_change('leads');
--> statement-breakpoint
CREATE TRIGGER lead_events_changed AFTER INSERT OR UPDATE OR DELETE ON lead_events FOR EACH ROW EXECUTE FUNCTION crm_notify_change('leads');
--> statement-breakpoint
CREATE TRIGGER appointments_changed AFTER INSERT OR UPDATE OR DELETE ON appointments FOR EACH ROW EXECUTE FUNCTION crm_notify_change('appointments');
