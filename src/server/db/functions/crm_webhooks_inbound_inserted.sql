-- email.replied for each reply stored already joined to a lead, recorded straight (see
-- crm_webhooks_appointments_inserted).

CREATE OR REPLACE FUNCTION crm_webhooks_inbound_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_endpoints WHERE paused_at IS NULL AND events @> ARRAY['email.replied']) THEN
    INSERT INTO webhook_events (type, object_id, lead_id)
    SELECT 'email.replied', n.id, n.lead_id FROM new_rows n WHERE n.lead_id IS NOT NULL ORDER BY n.id;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER inbound_emails_webhooks_inserted AFTER INSERT ON inbound_emails REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_inbound_inserted();
