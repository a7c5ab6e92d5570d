-- lead.stage_changed (with the previous stage, status and lost reason) and lead.updated (any field
-- crm_webhook_lead_fields shows) for the leads a statement changed.

CREATE OR REPLACE FUNCTION crm_webhooks_leads_updated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF crm_webhook_listened('lead.stage_changed') THEN
    PERFORM crm_webhook_record('lead.stage_changed', array_agg(n.id ORDER BY n.id), array_agg(n.id ORDER BY n.id),
      array_agg(jsonb_build_object('previous', jsonb_build_object('stage_id', o.stage_id, 'status', o.status, 'lost_reason', o.lost_reason)) ORDER BY n.id))
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.stage_id IS DISTINCT FROM o.stage_id OR n.lost_reason IS DISTINCT FROM o.lost_reason;
  END IF;
  IF crm_webhook_listened('lead.updated') THEN
    PERFORM crm_webhook_record('lead.updated', array_agg(n.id ORDER BY n.id), array_agg(n.id ORDER BY n.id), NULL)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE crm_webhook_lead_fields(n) IS DISTINCT FROM crm_webhook_lead_fields(o);
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER leads_webhooks_updated AFTER UPDATE ON leads REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_leads_updated();
