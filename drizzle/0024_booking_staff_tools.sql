CREATE TABLE "form_token_uses" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"submission_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "booked_network" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "suspected_abuse_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "form_token_uses_expires_at_idx" ON "form_token_uses" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "appointments_booked_network_idx" ON "appointments" USING btree ("booked_network","date") WHERE "appointments"."booked_network" is not null;