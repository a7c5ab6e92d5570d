-- Events already recorded have their deliveries: routed.
ALTER TABLE "webhook_events" ADD COLUMN "routed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ALTER COLUMN "routed" SET DEFAULT false;--> statement-breakpoint
CREATE INDEX "webhook_events_unrouted_idx" ON "webhook_events" USING btree ("seq") WHERE not "webhook_events"."routed";--> statement-breakpoint
-- The change's transaction records the event alone; the worker gives it one delivery per
-- endpoint listening, after the commit (db/queries/webhook-deliveries.ts, routeWebhookEvents).
-- A delivery row and its five index entries in every lead submission's transaction showed in
-- the lead submissions a second on PostgreSQL (docs/performance.md has the runs).
CREATE OR REPLACE FUNCTION crm_webhook_record(p_type text, p_objects uuid[], p_leads uuid[], p_data jsonb[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_events (type, object_id, lead_id, data)
  SELECT p_type, i.object_id, i.lead_id, i.data
  FROM unnest(p_objects, p_leads, p_data) WITH ORDINALITY AS i(object_id, lead_id, data, n)
  WHERE NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.object_id = i.object_id AND e.tx = txid_current() AND e.type = p_type)
  ORDER BY i.n;
END $$;
