CREATE TABLE "email_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "email_templates_name_check" CHECK (char_length("email_templates"."name") between 1 and 80),
	CONSTRAINT "email_templates_subject_check" CHECK (char_length("email_templates"."subject") between 1 and 200),
	CONSTRAINT "email_templates_body_check" CHECK (char_length("email_templates"."body") between 1 and 20000)
);
--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_name_key" ON "email_templates" USING btree (lower("name"));--> statement-breakpoint
INSERT INTO "email_templates" ("name", "subject", "body") VALUES
('First reply', 'Your free call with us, {{first_name}}', $t$Hi {{first_name}},

Thank you for getting in touch. I would be glad to walk you through how our due-diligence review works and what it would take for your property.

You can choose a time for a free call here: {{booking_link}}

Or call me at {{my_phone}} whenever suits you.

Best regards,
{{my_name}}$t$),
('Follow-up after a call', 'Following up on our call', $t$Hi {{first_name}},

Thank you for your time on the phone. As promised, here are the next steps for {{property_address}}:

1. 
2. 

If a question comes up in the meantime, reply to this email or call me at {{my_phone}}.

Best regards,
{{my_name}}$t$),
('Engagement next steps', 'Next steps for your due-diligence review', $t$Hi {{first_name}},

We are glad to be working with you. To begin the review of {{property_address}}, we will need:

1. The signed engagement letter
2. The purchase agreement and any addenda
3. The seller's disclosures, survey and title commitment, if you have them

Reply to this email with the documents, or choose a time to go through them together: {{booking_link}}

Best regards,
{{my_name}}$t$);
