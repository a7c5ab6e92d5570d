CREATE TABLE "erased_senders" (
	"address_hash" text PRIMARY KEY NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inbound_emails" ADD COLUMN "erased_sender" boolean DEFAULT false NOT NULL;