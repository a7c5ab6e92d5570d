-- Records webhook events of one type for the objects a statement changed, once per object and
-- transaction (several changes of one lead in one transaction are one lead.updated). The worker
-- routes them to endpoints after the commit (webhooks/sender.ts, docs/webhooks.md). The look at
-- webhook_events names the partial index's condition, so the planner can use it: it holds for every
-- type recorded here (the insert triggers record theirs straight).

CREATE OR REPLACE FUNCTION crm_webhook_record(p_type text, p_objects uuid[], p_leads uuid[], p_data jsonb[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO webhook_events (type, object_id, lead_id, data)
  SELECT p_type, i.object_id, i.lead_id, i.data
  FROM unnest(p_objects, p_leads, p_data) WITH ORDINALITY AS i(object_id, lead_id, data, n)
  WHERE NOT EXISTS (SELECT 1 FROM webhook_events e
    WHERE e.tx = txid_current() AND e.object_id = i.object_id AND e.type = p_type
      AND e.type NOT IN ('lead.created', 'appointment.booked', 'email.replied'))
  ORDER BY i.n;
END $function$;
