CREATE TABLE "user_availability" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"bookable" boolean DEFAULT false NOT NULL,
	"hours" jsonb,
	"days_off" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"holidays_off" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "host_id" uuid;--> statement-breakpoint
ALTER TABLE "user_availability" ADD CONSTRAINT "user_availability_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_host_id_users_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointments_host_date_idx" ON "appointments" USING btree ("host_id","date");--> statement-breakpoint
-- Each appointment gets the person who takes it: the lead's owner when that is an active
-- account, else the first owner (the account that has, until now, been the firm's one calendar).
UPDATE "appointments" a SET "host_id" = coalesce(
  (SELECT u."id" FROM "leads" l JOIN "users" u ON u."id" = l."owner_id" WHERE l."id" = a."lead_id" AND u."deactivated_at" IS NULL),
  (SELECT u."id" FROM "users" u WHERE u."role" = 'owner' ORDER BY u."deactivated_at" IS NOT NULL, u."created_at", u."id" LIMIT 1));--> statement-breakpoint
-- The first owner keeps taking the website's calls on the firm's booking hours (hours null),
-- as the one calendar did; everyone else turns it on from their account page.
INSERT INTO "user_availability" ("user_id", "bookable")
  SELECT u."id", true FROM "users" u WHERE u."role" = 'owner' ORDER BY u."deactivated_at" IS NOT NULL, u."created_at", u."id" LIMIT 1;--> statement-breakpoint
-- The first account made takes the website's calls, so a new install books from the start.
CREATE FUNCTION crm_first_account_bookable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM user_availability WHERE bookable) AND NOT EXISTS (SELECT 1 FROM users WHERE id <> NEW.id) THEN
    INSERT INTO user_availability (user_id, bookable) VALUES (NEW.id, true) ON CONFLICT (user_id) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_first_account_bookable AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION crm_first_account_bookable();--> statement-breakpoint
-- One person's scheduled calls never overlap (unless staff chose to); two people's may.
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
ALTER TABLE "appointments" DROP CONSTRAINT "appointments_no_overlap";--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_no_overlap" EXCLUDE USING gist ("host_id" WITH =, "blocks" WITH &&) WHERE ("status" = 'scheduled' AND NOT "overlap_allowed");--> statement-breakpoint
-- The open times now depend on who takes calls, their hours, and who their calls are with.
DROP TRIGGER appointments_availability_updated ON appointments;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER appointments_availability_updated AFTER UPDATE ON appointments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.status, OLD.date, OLD.time, OLD.duration_minutes, OLD.host_id) IS DISTINCT FROM (NEW.status, NEW.date, NEW.time, NEW.duration_minutes, NEW.host_id))
  EXECUTE FUNCTION crm_bump_availability();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER user_availability_changed AFTER INSERT OR UPDATE OR DELETE ON user_availability
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION crm_bump_availability();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER users_availability_changed AFTER UPDATE ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.deactivated_at IS NULL, OLD.display_name) IS DISTINCT FROM (NEW.deactivated_at IS NULL, NEW.display_name))
  EXECUTE FUNCTION crm_bump_availability();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER users_availability_deleted AFTER DELETE ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION crm_bump_availability();
