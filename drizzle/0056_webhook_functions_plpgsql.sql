-- The two functions every webhook trigger calls, in PL/pgSQL rather than SQL: a SQL function
-- called from a trigger is parsed and planned again at every call (0.3 ms for a lead's insert
-- with one endpoint listening), while PL/pgSQL keeps its statements' plans for the session
-- (0.07 ms). Same statements, same results.
CREATE OR REPLACE FUNCTION crm_webhook_listened(p_type text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM webhook_endpoints WHERE paused_at IS NULL AND events @> ARRAY[p_type]);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_webhook_record(p_type text, p_objects uuid[], p_leads uuid[], p_data jsonb[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH items AS (
    SELECT o AS object_id, l AS lead_id, d AS data, n FROM unnest(p_objects, p_leads, p_data) WITH ORDINALITY AS u(o, l, d, n)
  ), ev AS (
    INSERT INTO webhook_events (type, object_id, lead_id, data)
    SELECT p_type, i.object_id, i.lead_id, i.data FROM items i
    WHERE NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.object_id = i.object_id AND e.tx = txid_current() AND e.type = p_type)
    ORDER BY i.n
    RETURNING id, seq, object_id
  )
  INSERT INTO webhook_deliveries (endpoint_id, event_id, object_id, event_seq)
  SELECT w.id, ev.id, ev.object_id, ev.seq FROM ev JOIN webhook_endpoints w ON w.paused_at IS NULL AND w.events @> ARRAY[p_type];
END $$;
