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
-- A lead's owner changes on its timeline named both owners by email; they name them by name
-- now. Owners whose account still exists get their name; a removed account's email stays.
UPDATE "lead_events" e SET "data" = e."data"
  || jsonb_build_object('from', coalesce((SELECT to_jsonb(u."display_name") FROM "users" u WHERE u."email" = e."data"->>'from'), e."data"->'from'))
  || jsonb_build_object('to', coalesce((SELECT to_jsonb(u."display_name") FROM "users" u WHERE u."email" = e."data"->>'to'), e."data"->'to'))
WHERE e."kind" = 'owner';
