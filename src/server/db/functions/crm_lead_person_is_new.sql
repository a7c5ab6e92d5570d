-- Whether a public form submission is a new person: no lead has its email, no inquiry is this
-- submission (db/queries/lead-inquiries-queries.ts). It first takes the email's lock (the key the public
-- form's own transaction takes), so two submissions of one email are decided one after the other.
-- VOLATILE: each query in it takes a fresh snapshot, taken after the lock, so it sees the lead that
-- the lock's previous holder committed, even when the statement that calls it started before. That
-- lets the form's common case (a new person) be one statement, committed on its own.

CREATE OR REPLACE FUNCTION crm_lead_person_is_new(lead_email text, submission uuid)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lead-email:' || lead_email));
  RETURN NOT EXISTS (SELECT 1 FROM leads WHERE email = lead_email)
    AND NOT EXISTS (SELECT 1 FROM lead_events WHERE submission_id = submission);
END;
$function$;
