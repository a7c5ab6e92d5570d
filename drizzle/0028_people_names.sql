-- People have names: the name the product shows for an account (as a lead's owner, a note's
-- author, an actor on a timeline or in the audit log) and an optional phone. Existing accounts
-- get the part of their email before the @ (as src/shared/rules/profile.ts, defaultDisplayName,
-- names an account made without one), so nothing breaks; each person can change it on the
-- account page.
ALTER TABLE "users" ADD COLUMN "display_name" text;--> statement-breakpoint
UPDATE "users" SET "display_name" = left(btrim(split_part("email", '@', 1)), 80);--> statement-breakpoint
UPDATE "users" SET "display_name" = 'Admin' WHERE "display_name" = '';--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "display_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_display_name_check" CHECK (char_length("users"."display_name") between 1 and 80 and "users"."display_name" = btrim("users"."display_name"));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_phone_check" CHECK (char_length("users"."phone") between 1 and 40);--> statement-breakpoint
-- The audit log keeps the actor's name then, beside their email, so an entry still says who
-- once the account is removed (while it exists, the log shows its current name). Entries of
-- accounts that exist get their name now, through the log's maintenance switch (this
-- transaction only); those of accounts removed before keep their email alone.
ALTER TABLE "audit_log" ADD COLUMN "actor_name" text;--> statement-breakpoint
SELECT set_config('crm.audit_maintenance', 'on', true);--> statement-breakpoint
UPDATE "audit_log" a SET "actor_name" = u."display_name" FROM "users" u WHERE u."id" = a."actor_id";--> statement-breakpoint
SELECT set_config('crm.audit_maintenance', 'off', true);--> statement-breakpoint
-- Removing an account nulls actor_id and must leave everything else as it was: the name too.
CREATE OR REPLACE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('crm.audit_maintenance', true), '') = 'on' THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW."actor_id" IS NULL AND OLD."actor_id" IS NOT NULL
     AND (NEW."id", NEW."at", NEW."actor_email", NEW."actor_name", NEW."action", NEW."target_type", NEW."target_id", NEW."details", NEW."ip", NEW."user_agent")
         IS NOT DISTINCT FROM (OLD."id", OLD."at", OLD."actor_email", OLD."actor_name", OLD."action", OLD."target_type", OLD."target_id", OLD."details", OLD."ip", OLD."user_agent") THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'Audit log entries cannot be changed or deleted.' USING ERRCODE = 'insufficient_privilege';
END $$;--> statement-breakpoint
-- A lead's owner changes on its timeline named both owners by email; they name them by name
-- now. Owners whose account still exists get their name; a removed account's email stays.
UPDATE "lead_events" e SET "data" = e."data"
  || jsonb_build_object('from', coalesce((SELECT to_jsonb(u."display_name") FROM "users" u WHERE u."email" = e."data"->>'from'), e."data"->'from'))
  || jsonb_build_object('to', coalesce((SELECT to_jsonb(u."display_name") FROM "users" u WHERE u."email" = e."data"->>'to'), e."data"->'to'))
WHERE e."kind" = 'owner';
