-- lead.created for each lead inserted, recorded straight (see crm_webhooks_appointments_inserted).

CREATE OR REPLACE FUNCTION crm_webhooks_leads_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_endpoints WHERE paused_at IS NULL AND events @> ARRAY['lead.created']) THEN
    INSERT INTO webhook_events (type, object_id, lead_id)
    SELECT 'lead.created', n.id, n.id FROM new_rows n ORDER BY n.created_at, n.id;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER leads_webhooks_inserted AFTER INSERT ON leads REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_leads_inserted();
