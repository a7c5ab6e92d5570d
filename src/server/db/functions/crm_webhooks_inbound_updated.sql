-- email.replied for a reply joined to a lead later, from the Inbox.

CREATE OR REPLACE FUNCTION crm_webhooks_inbound_updated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF crm_webhook_listened('email.replied') THEN
    PERFORM crm_webhook_record('email.replied', array_agg(n.id ORDER BY n.id), array_agg(n.lead_id ORDER BY n.id), NULL)
    FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.lead_id IS NOT NULL AND o.lead_id IS NULL;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER inbound_emails_webhooks_updated AFTER UPDATE ON inbound_emails REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_inbound_updated();
