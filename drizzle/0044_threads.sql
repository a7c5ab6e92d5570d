ALTER TABLE "emails" ADD COLUMN "thread_id" uuid;--> statement-breakpoint
ALTER TABLE "inbound_emails" ADD COLUMN "thread_id" uuid;--> statement-breakpoint
CREATE INDEX "emails_thread_idx" ON "emails" USING btree ("thread_id") WHERE "emails"."thread_id" is not null;--> statement-breakpoint
CREATE INDEX "inbound_emails_thread_idx" ON "inbound_emails" USING btree ("thread_id") WHERE "inbound_emails"."thread_id" is not null;--> statement-breakpoint
-- Messages stored before threads existed: each message's parent is what it answers (one of
-- ours named by answers_email_id; one of theirs by its In-Reply-To; for an answer of ours, the
-- Message-ID it named), and each takes the thread of the first message up its chain, walked
-- down from the messages that answer nothing. A cycle of forged ids is never reached from such
-- a first message: its messages stay their own threads.
CREATE TEMP TABLE thread_roots AS
WITH RECURSIVE edges AS (
  SELECT e.id, (SELECT i.id FROM inbound_emails i
                WHERE e.kind = 'lead-message' AND i.lead_id = e.lead_id AND i.message_id = e.data->>'in_reply_to'
                ORDER BY i.received_at, i.id LIMIT 1) AS parent
  FROM emails e WHERE e.lead_id IS NOT NULL
  UNION ALL
  SELECT i.id, coalesce(i.answers_email_id, (SELECT j.id FROM inbound_emails j
                WHERE j.lead_id = i.lead_id AND j.mailbox = i.mailbox AND j.id <> i.id AND j.message_id = i.in_reply_to
                ORDER BY j.received_at, j.id LIMIT 1))
  FROM inbound_emails i WHERE i.lead_id IS NOT NULL
), tree AS (
  SELECT id, id AS root FROM edges WHERE parent IS NULL
  UNION ALL
  SELECT c.id, t.root FROM edges c JOIN tree t ON c.parent = t.id
)
SELECT id, root FROM tree WHERE id <> root;--> statement-breakpoint
UPDATE emails e SET thread_id = r.root FROM thread_roots r WHERE r.id = e.id;--> statement-breakpoint
UPDATE inbound_emails i SET thread_id = r.root FROM thread_roots r WHERE r.id = i.id;--> statement-breakpoint
DROP TABLE thread_roots;
