-- From here on, the database's functions and triggers are defined in src/server/db/functions/,
-- one file per function with the triggers that call it, applied after the migrations at each
-- start when their text changed (db/definitions.ts keeps each file's SHA-256 here). A migration no
-- longer copies a function's body: only one that needs a body at its own point in history (a
-- backfill) carries it, and removing a file comes with a migration that drops its objects.
CREATE TABLE "database_definitions" (
	"name" text PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
