ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_check";--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "sent_by" uuid;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "reply_token" text;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "emails_sent_by_idx" ON "emails" USING btree ("sent_by") WHERE "emails"."sent_by" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "leads_reply_token_key" ON "leads" USING btree ("reply_token") WHERE "leads"."reply_token" is not null;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_check" CHECK ("emails"."kind" in ('new-lead', 'lead-acknowledgement', 'appointment', 'appointment-reminder', 'test', 'invite', 'password-reset', 'weekly-report', 'booking-confirmation', 'lead-message'));--> statement-breakpoint
-- A message to a lead that is sent, fails or is given up on changes the lead's timeline: the
-- browsers showing it refetch (as for any change of the lead), so its state shows live.
CREATE TRIGGER emails_lead_status_changed AFTER UPDATE OF status ON emails FOR EACH ROW
  WHEN (NEW.lead_id IS NOT NULL AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION crm_notify_change('leads');
