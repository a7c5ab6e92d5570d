CREATE TABLE "webhook_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"http_status" integer,
	"duration_ms" integer NOT NULL,
	"response_body" text,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"object_id" uuid,
	"event_seq" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_status" integer,
	"last_error" text,
	"replay_of" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "webhook_deliveries_status_check" CHECK ("webhook_deliveries"."status" in ('pending', 'delivered', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_until" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"paused_reason" text,
	"failing_since" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_url_check" CHECK (length("webhook_endpoints"."url") between 8 and 2000),
	CONSTRAINT "webhook_endpoints_paused_reason_check" CHECK ("webhook_endpoints"."paused_reason" is null or "webhook_endpoints"."paused_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"type" text NOT NULL,
	"object_id" uuid,
	"lead_id" uuid,
	"data" jsonb,
	"payload" text,
	"erased" boolean DEFAULT false NOT NULL,
	"tx" bigint DEFAULT txid_current() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_attempts_endpoint_idx" ON "webhook_attempts" USING btree ("endpoint_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_at_idx" ON "webhook_attempts" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_once_key" ON "webhook_deliveries" USING btree ("endpoint_id","event_id") WHERE "webhook_deliveries"."replay_of" is null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_order_idx" ON "webhook_deliveries" USING btree ("endpoint_id","object_id","event_seq") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_active_idx" ON "webhook_endpoints" USING gin ("events") WHERE "webhook_endpoints"."paused_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_seq_key" ON "webhook_events" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "webhook_events_object_tx_idx" ON "webhook_events" USING btree ("object_id","tx");--> statement-breakpoint
CREATE INDEX "webhook_events_lead_idx" ON "webhook_events" USING btree ("lead_id") WHERE "webhook_events"."lead_id" is not null;--> statement-breakpoint
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('lead', 'appointment', 'booking', 'follow_up', 'calendar', 'reply', 'webhook'));--> statement-breakpoint
-- Hand-written from here (drizzle-kit does not write triggers). Webhook events are recorded by
-- statement-level triggers with transition tables, in the transaction of the change, so every
-- path (the public form, staff, imports, bulk changes, merges, erasures, bookings, the reply
-- reader, the task job) records them and a bulk change of thousands of leads is one INSERT per
-- statement. Each trigger first asks whether any unpaused endpoint listens to the type (the
-- partial GIN index webhook_endpoints_active_idx): nothing else runs when none does. Several
-- changes of one object of one type in one transaction are one event (its payload is read at
-- the first delivery, so it shows the state after them all).
CREATE FUNCTION crm_webhook_listened(p_type text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE paused_at IS NULL AND events @> ARRAY[p_type])
$$;
--> statement-breakpoint
CREATE FUNCTION crm_webhook_record(p_type text, p_objects uuid[], p_leads uuid[], p_data jsonb[]) RETURNS void LANGUAGE sql AS $$
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
  SELECT w.id, ev.id, ev.object_id, ev.seq FROM ev JOIN webhook_endpoints w ON w.paused_at IS NULL AND w.events @> ARRAY[p_type]
$$;
--> statement-breakpoint
CREATE FUNCTION crm_webhooks_leads_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF crm_webhook_listened('lead.created') THEN
    PERFORM crm_webhook_record('lead.created', array_agg(n.id ORDER BY n.created_at, n.id), array_agg(n.id ORDER BY n.created_at, n.id), NULL) FROM new_rows n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- What a lead's API answer shows, less what lead.stage_changed reports (stage, status, lost
-- reason) and what is not the person's record (timestamps, the reply token, derived columns).
CREATE FUNCTION crm_webhook_lead_fields(l leads) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT to_jsonb(l) - ARRAY['updated_at', 'stage_id', 'status', 'contacted', 'lost_reason', 'stage_entered_at', 'reply_token', 'phone_digits']
$$;
--> statement-breakpoint
CREATE FUNCTION crm_webhooks_leads_updated() RETURNS trigger LANGUAGE plpgsql AS $$
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
END $$;
--> statement-breakpoint
-- A lead's row goes in three ways, told apart by a setting the deleting transaction makes:
-- an erasure (crm.lead_erasure = 'on', db/queries/lead-removal.ts): every payload about the
-- person is cleared, their pending deliveries cancelled, and lead.erased sent with the id
-- alone; a merge (crm.lead_merged_into = the kept lead, db/queries/lead-merge.ts): lead.merged
-- on the kept lead, whose events the merged one's join; a plain delete: no event.
CREATE FUNCTION crm_webhooks_leads_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kept uuid := nullif(current_setting('crm.lead_merged_into', true), '')::uuid;
  ids uuid[];
BEGIN
  SELECT array_agg(o.id ORDER BY o.id) INTO ids FROM old_rows o;
  IF ids IS NULL THEN RETURN NULL; END IF;
  IF current_setting('crm.lead_erasure', true) = 'on' THEN
    UPDATE webhook_deliveries d SET status = 'cancelled', locked_until = NULL, finished_at = now(), last_error = 'The lead was erased'
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
END $$;
--> statement-breakpoint
CREATE TRIGGER leads_webhooks_inserted AFTER INSERT ON leads REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_leads_inserted();
--> statement-breakpoint
CREATE TRIGGER leads_webhooks_updated AFTER UPDATE ON leads REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_leads_updated();
--> statement-breakpoint
CREATE TRIGGER leads_webhooks_deleted AFTER DELETE ON leads REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_leads_deleted();
--> statement-breakpoint
CREATE FUNCTION crm_webhooks_appointments_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF crm_webhook_listened('appointment.booked') THEN
    PERFORM crm_webhook_record('appointment.booked', array_agg(n.id ORDER BY n.id), array_agg(n.lead_id ORDER BY n.id), NULL)
    FROM new_rows n WHERE n.status = 'scheduled';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION crm_webhooks_appointments_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF crm_webhook_listened('appointment.cancelled') THEN
    PERFORM crm_webhook_record('appointment.cancelled', array_agg(n.id ORDER BY n.id), array_agg(n.lead_id ORDER BY n.id), NULL)
    FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status = 'cancelled' AND o.status <> 'cancelled';
  END IF;
  IF crm_webhook_listened('appointment.rescheduled') THEN
    PERFORM crm_webhook_record('appointment.rescheduled', array_agg(n.id ORDER BY n.id), array_agg(n.lead_id ORDER BY n.id),
      array_agg(jsonb_build_object('previous', jsonb_build_object('date', o.date, 'time', to_char(o.time, 'HH24:MI'),
        'duration_minutes', o.duration_minutes, 'host_id', o.host_id)) ORDER BY n.id))
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.status = 'scheduled' AND (n.date, n.time, n.duration_minutes, n.host_id) IS DISTINCT FROM (o.date, o.time, o.duration_minutes, o.host_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER appointments_webhooks_inserted AFTER INSERT ON appointments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_appointments_inserted();
--> statement-breakpoint
CREATE TRIGGER appointments_webhooks_updated AFTER UPDATE ON appointments REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_appointments_updated();
--> statement-breakpoint
-- A reply joins its lead when stored (the reader) or later (filed from the Inbox).
CREATE FUNCTION crm_webhooks_inbound_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF crm_webhook_listened('email.replied') THEN
    PERFORM crm_webhook_record('email.replied', array_agg(n.id ORDER BY n.id), array_agg(n.lead_id ORDER BY n.id), NULL)
    FROM new_rows n WHERE n.lead_id IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION crm_webhooks_inbound_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF crm_webhook_listened('email.replied') THEN
    PERFORM crm_webhook_record('email.replied', array_agg(n.id ORDER BY n.id), array_agg(n.lead_id ORDER BY n.id), NULL)
    FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.lead_id IS NOT NULL AND o.lead_id IS NULL;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER inbound_emails_webhooks_inserted AFTER INSERT ON inbound_emails REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_inbound_inserted();
--> statement-breakpoint
CREATE TRIGGER inbound_emails_webhooks_updated AFTER UPDATE ON inbound_emails REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_inbound_updated();
--> statement-breakpoint
-- The task job (db/queries/follow-ups.ts) sets notified_at once per due time.
CREATE FUNCTION crm_webhooks_tasks_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF crm_webhook_listened('task.due') THEN
    PERFORM crm_webhook_record('task.due', array_agg(n.id ORDER BY n.id), array_agg(n.lead_id ORDER BY n.id), NULL)
    FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.notified_at IS NOT NULL AND o.notified_at IS NULL;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER lead_tasks_webhooks_updated AFTER UPDATE ON lead_tasks REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_webhooks_tasks_updated();
