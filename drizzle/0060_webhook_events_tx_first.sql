-- The recording functions ask whether this transaction already recorded an event of an object
-- (one lead.updated however many times a lead changes in it). By (object_id, tx), the cached plan
-- of that question scanned the whole index on tx alone, at every lead submission with an endpoint
-- listening, growing with the table; by (tx, object_id) it reads this transaction's few entries.
DROP INDEX "webhook_events_object_tx_idx";--> statement-breakpoint
CREATE INDEX "webhook_events_tx_idx" ON "webhook_events" USING btree ("tx","object_id");--> statement-breakpoint
-- An object inserted by this statement has no event of this transaction yet, so its event is
-- recorded straight, without crm_webhook_listened's and crm_webhook_record's calls and check
-- (two of the three statements a lead submission ran for an endpoint).
CREATE OR REPLACE FUNCTION crm_webhooks_leads_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_endpoints WHERE paused_at IS NULL AND events @> ARRAY['lead.created']) THEN
    INSERT INTO webhook_events (type, object_id, lead_id)
    SELECT 'lead.created', n.id, n.id FROM new_rows n ORDER BY n.created_at, n.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_webhooks_appointments_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_endpoints WHERE paused_at IS NULL AND events @> ARRAY['appointment.booked']) THEN
    INSERT INTO webhook_events (type, object_id, lead_id)
    SELECT 'appointment.booked', n.id, n.lead_id FROM new_rows n WHERE n.status = 'scheduled' ORDER BY n.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_webhooks_inbound_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_endpoints WHERE paused_at IS NULL AND events @> ARRAY['email.replied']) THEN
    INSERT INTO webhook_events (type, object_id, lead_id)
    SELECT 'email.replied', n.id, n.lead_id FROM new_rows n WHERE n.lead_id IS NOT NULL ORDER BY n.id;
  END IF;
  RETURN NULL;
END $$;
