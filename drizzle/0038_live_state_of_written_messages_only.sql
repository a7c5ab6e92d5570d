-- Only a message someone wrote on a lead's page announces its state changes: the product's own
-- mail about a lead (the new-lead message to every admin, acknowledgements, invitations) made
-- every open list and lead page refetch once per message sent, a storm on a busy morning.
DROP TRIGGER IF EXISTS emails_lead_status_changed ON emails;
--> statement-breakpoint
CREATE TRIGGER emails_lead_status_changed AFTER UPDATE OF status ON emails FOR EACH ROW
  WHEN (NEW.lead_id IS NOT NULL AND NEW.kind = 'lead-message' AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION crm_notify_change('leads');
