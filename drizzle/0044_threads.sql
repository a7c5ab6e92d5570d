ALTER TABLE "emails" ADD COLUMN "thread_id" uuid;--> statement-breakpoint
ALTER TABLE "inbound_emails" ADD COLUMN "thread_id" uuid;--> statement-breakpoint
CREATE INDEX "emails_thread_idx" ON "emails" USING btree ("thread_id") WHERE "emails"."thread_id" is not null;--> statement-breakpoint
CREATE INDEX "inbound_emails_thread_idx" ON "inbound_emails" USING btree ("thread_id") WHERE "inbound_emails"."thread_id" is not null;--> statement-breakpoint
-- Messages stored before threads existed: each answer takes the thread of what it answers (one
-- of ours named by answers_email_id or by the Message-ID an answer of ours named; one of theirs
-- by its In-Reply-To), repeated until a chain settles (ten rounds bound a cycle of forged ids).
DO $$
DECLARE
  changed integer;
  total integer;
BEGIN
  FOR round IN 1..10 LOOP
    UPDATE inbound_emails i SET thread_id = coalesce(e.thread_id, e.id)
      FROM emails e WHERE e.id = i.answers_email_id AND i.thread_id IS DISTINCT FROM coalesce(e.thread_id, e.id);
    GET DIAGNOSTICS total = ROW_COUNT;
    UPDATE inbound_emails i SET thread_id = coalesce(j.thread_id, j.id)
      FROM inbound_emails j
      WHERE i.answers_email_id IS NULL AND i.lead_id IS NOT NULL AND j.lead_id = i.lead_id AND j.id <> i.id
        AND j.message_id = i.in_reply_to AND j.mailbox = i.mailbox AND i.thread_id IS DISTINCT FROM coalesce(j.thread_id, j.id);
    GET DIAGNOSTICS changed = ROW_COUNT;
    total := total + changed;
    UPDATE emails e SET thread_id = coalesce(i.thread_id, i.id)
      FROM inbound_emails i
      WHERE e.kind = 'lead-message' AND e.lead_id = i.lead_id AND i.message_id = e.data->>'in_reply_to'
        AND e.thread_id IS DISTINCT FROM coalesce(i.thread_id, i.id);
    GET DIAGNOSTICS changed = ROW_COUNT;
    total := total + changed;
    EXIT WHEN total = 0;
  END LOOP;
END $$;
