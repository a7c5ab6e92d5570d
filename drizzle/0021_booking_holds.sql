CREATE TABLE "booking_holds" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"confirm_hash" text NOT NULL,
	"date" date NOT NULL,
	"time" time NOT NULL,
	"type" text NOT NULL,
	"client_network" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"appointment_id" uuid,
	CONSTRAINT "booking_holds_type_check" CHECK ("booking_holds"."type" in ('Call', 'Zoom', 'On-site'))
);
--> statement-breakpoint
ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_check";--> statement-breakpoint
ALTER TABLE "booking_holds" ADD CONSTRAINT "booking_holds_token_hash_booking_tokens_token_hash_fk" FOREIGN KEY ("token_hash") REFERENCES "public"."booking_tokens"("token_hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_holds" ADD CONSTRAINT "booking_holds_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_holds_confirm_hash_key" ON "booking_holds" USING btree ("confirm_hash");--> statement-breakpoint
CREATE INDEX "booking_holds_expires_at_idx" ON "booking_holds" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_check" CHECK ("emails"."kind" in ('new-lead', 'lead-acknowledgement', 'appointment', 'appointment-reminder', 'test', 'invite', 'password-reset', 'weekly-report', 'booking-confirmation'));