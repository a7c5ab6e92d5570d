CREATE TABLE "inbound_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	CONSTRAINT "inbound_attachments_size_check" CHECK ("inbound_attachments"."size" between 0 and 10485760)
);
--> statement-breakpoint
CREATE TABLE "inbound_emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mailbox" text NOT NULL,
	"uidvalidity" bigint NOT NULL,
	"uid" bigint NOT NULL,
	"message_id" text,
	"in_reply_to" text,
	"from_address" text NOT NULL,
	"from_name" text DEFAULT '' NOT NULL,
	"to_addresses" text DEFAULT '' NOT NULL,
	"cc_addresses" text DEFAULT '' NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"sent_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"lead_id" uuid,
	"matched_by" text,
	"sender_verified" boolean DEFAULT true NOT NULL,
	"answers_email_id" uuid,
	"read_at" timestamp with time zone,
	"dismissed_at" timestamp with time zone,
	CONSTRAINT "inbound_emails_matched_by_check" CHECK ("inbound_emails"."matched_by" in ('thread', 'token', 'sender', 'staff'))
);
--> statement-breakpoint
CREATE TABLE "mail_readers" (
	"mailbox" text PRIMARY KEY NOT NULL,
	"uidvalidity" bigint,
	"last_uid" bigint DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"checked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "inbound_attachments" ADD CONSTRAINT "inbound_attachments_email_id_inbound_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."inbound_emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_emails" ADD CONSTRAINT "inbound_emails_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_emails" ADD CONSTRAINT "inbound_emails_answers_email_id_emails_id_fk" FOREIGN KEY ("answers_email_id") REFERENCES "public"."emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_attachments_email_idx" ON "inbound_attachments" USING btree ("email_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_emails_uid_key" ON "inbound_emails" USING btree ("mailbox","uidvalidity","uid");--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_emails_message_id_key" ON "inbound_emails" USING btree ("mailbox","message_id") WHERE "inbound_emails"."message_id" is not null;--> statement-breakpoint
CREATE INDEX "inbound_emails_lead_idx" ON "inbound_emails" USING btree ("lead_id","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "inbound_emails_unread_idx" ON "inbound_emails" USING btree ("lead_id") WHERE "inbound_emails"."read_at" is null and "inbound_emails"."lead_id" is not null;--> statement-breakpoint
CREATE INDEX "inbound_emails_inbox_idx" ON "inbound_emails" USING btree ("received_at" DESC NULLS LAST) WHERE "inbound_emails"."lead_id" is null;--> statement-breakpoint
CREATE INDEX "emails_message_id_idx" ON "emails" USING btree ("message_id");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('lead', 'appointment', 'booking', 'follow_up', 'calendar', 'reply'));--> statement-breakpoint
-- A reply that joins a lead (or is attached, read, or dismissed) refreshes every open list and lead page.
CREATE TRIGGER inbound_emails_changed AFTER INSERT OR UPDATE OF lead_id, read_at, dismissed_at OR DELETE ON inbound_emails
  FOR EACH STATEMENT EXECUTE FUNCTION crm_notify_change('leads');
