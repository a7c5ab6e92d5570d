CREATE TABLE "sign_in_ips" (
	"user_id" uuid NOT NULL,
	"ip" text NOT NULL,
	"last_success_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_ips_user_id_ip_pk" PRIMARY KEY("user_id","ip")
);
--> statement-breakpoint
DROP INDEX "rate_limits_window_idx";--> statement-breakpoint
ALTER TABLE "rate_limits" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written: rows from before this migration do not say their window's length; the
-- longest window in use is an hour, so each is kept for an hour after it started.
UPDATE "rate_limits" SET "expires_at" = "window_start" + interval '1 hour';--> statement-breakpoint
ALTER TABLE "rate_limits" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sign_in_ips" ADD CONSTRAINT "sign_in_ips_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_in_ips_last_success_at_idx" ON "sign_in_ips" USING btree ("last_success_at");--> statement-breakpoint
CREATE INDEX "rate_limits_expires_at_idx" ON "rate_limits" USING btree ("expires_at");