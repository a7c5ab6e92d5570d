-- The product's clock, crm_now() (src/server/db/functions/crm_now.sql defines it from here on):
-- now(), unless a test set crm.test_now. The defaults below call it, so it must exist at this point
-- in history: this body is the file's, which is applied again after the migrations.
CREATE OR REPLACE FUNCTION crm_now()
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  SELECT coalesce(nullif(current_setting('crm.test_now', true), '')::timestamptz, now())
$function$;--> statement-breakpoint
ALTER TABLE "account_tokens" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "analytics_events" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "app_secrets" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "appointments" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "booking_holds" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "booking_settings" ALTER COLUMN "updated_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "booking_tokens" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "calendar_connections" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "calendar_feeds" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "calendar_writes" ALTER COLUMN "next_attempt_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "email_templates" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "email_templates" ALTER COLUMN "updated_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "emails" ALTER COLUMN "next_attempt_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "emails" ALTER COLUMN "retry_until" SET DEFAULT crm_now() + interval '24 hours';--> statement-breakpoint
ALTER TABLE "emails" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "erased_messages" ALTER COLUMN "erased_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "erased_senders" ALTER COLUMN "erased_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "inbound_emails" ALTER COLUMN "received_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "lead_events" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "lead_notes" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "lead_notes" ALTER COLUMN "updated_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "lead_stage_changes" ALTER COLUMN "changed_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "lead_status_changes" ALTER COLUMN "changed_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "lead_tasks" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "lead_tasks" ALTER COLUMN "updated_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "leads" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "leads" ALTER COLUMN "stage_entered_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "leads" ALTER COLUMN "updated_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "lost_reasons" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "pipeline_stages" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "public_mail_spends" ALTER COLUMN "spent_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "recovery_codes" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "last_seen_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "sign_in_challenges" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "sign_in_ips" ALTER COLUMN "last_success_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "team_settings" ALTER COLUMN "updated_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "trusted_devices" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "user_availability" ALTER COLUMN "updated_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "password_changed_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "webhook_attempts" ALTER COLUMN "at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "next_attempt_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ALTER COLUMN "updated_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "webhook_events" ALTER COLUMN "created_at" SET DEFAULT crm_now();--> statement-breakpoint
ALTER TABLE "website_settings" ALTER COLUMN "updated_at" SET DEFAULT crm_now();