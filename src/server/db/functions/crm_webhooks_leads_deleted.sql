-- A lead's row goes in three ways, told apart by a setting the deleting transaction makes: an
-- erasure (crm.lead_erasure = 'on', db/queries/lead-removal-queries.ts): every payload about the person is
-- cleared, their pending deliveries cancelled, and lead.erased sent with the id alone; a merge
-- (crm.lead_merged_into = the kept lead, db/queries/lead-merge-queries.ts): lead.merged on the kept lead,
-- whose events the merged one's join; a plain delete: no event.

CREATE OR REPLACE FUNCTION crm_webhooks_leads_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  kept uuid := nullif(current_setting('crm.lead_merged_into', true), '')::uuid;
  ids uuid[];
BEGIN
  SELECT array_agg(o.id ORDER BY o.id) INTO ids FROM old_rows o;
  IF ids IS NULL THEN RETURN NULL; END IF;
  IF current_setting('crm.lead_erasure', true) = 'on' THEN
    UPDATE webhook_deliveries d SET status = 'cancelled', locked_until = NULL, finished_at = crm_now(), last_error = 'The lead was erased'
      FROM webhook_events e WHERE e.id = d.event_id AND e.lead_id = ANY (ids) AND d.status = 'pending';
    UPDATE webhook_attempts a SET response_body = NULL
      FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
      WHERE a.delivery_id = d.id AND e.lead_id = ANY (ids) AND a.response_body IS NOT NULL;
    UPDATE webhook_events SET payload = NULL, data = NULL, erased = true, lead_id = NULL WHERE lead_id = ANY (ids);
    IF crm_webhook_listened('lead.erased') THEN
      PERFORM crm_webhook_record('lead.erased', ids, array_fill(NULL::uuid, ARRAY[cardinality(ids)]), NULL);
      UPDATE webhook_events SET payload = json_build_object('type', 'lead.erased',
          'timestamp', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', json_build_object('id', object_id))::text
        WHERE object_id = ANY (ids) AND tx = txid_current() AND type = 'lead.erased' AND payload IS NULL;
    END IF;
  ELSIF kept IS NOT NULL THEN
    UPDATE webhook_events SET lead_id = kept WHERE lead_id = ANY (ids);
    IF crm_webhook_listened('lead.merged') THEN
      PERFORM crm_webhook_record('lead.merged', ARRAY[kept], ARRAY[kept], ARRAY[jsonb_build_object('merged_lead_ids', to_jsonb(ids))]);
    END IF;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER leads_webhooks_deleted AFTER DELETE ON leads REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_leads_deleted();
