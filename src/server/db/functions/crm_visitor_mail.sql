-- Before a visitor's message is stored: no display name (the visitor typed it); then, under a lock
-- on the recipient (two processes never both spend an address's last unit), one acknowledgement
-- per address per 30 days, and at most visitor_budget messages per address in 24 hours but to a
-- team member's own address. Past either, the message is stored not sent, with why. VOLATILE: each
-- query takes a fresh snapshot, so the count made after the lock sees what the previous holder
-- committed. Mail recorded not sent (email off) spends nothing.

CREATE OR REPLACE FUNCTION crm_visitor_mail()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  k text := crm_public_mail_key(NEW.to_address);
  spent int;
BEGIN
  NEW.to_name := NULL;
  IF NEW.status <> 'queued' THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(4201312, hashtext(k));
  IF NEW.kind = 'lead-acknowledgement' AND EXISTS (
    SELECT 1 FROM public_mail_spends WHERE address_key = k AND kind = 'lead-acknowledgement' AND spent_at > crm_now() - interval '30 days'
  ) THEN
    NEW.status := 'not_sent';
    NEW.last_error := 'Not sent: this address was sent an acknowledgement in the last 30 days (one per address per 30 days).';
    RETURN NEW;
  END IF;
  IF NEW.visitor_budget > 0 AND NOT EXISTS (
    SELECT 1 FROM users WHERE email = lower(btrim(NEW.to_address)) AND deactivated_at IS NULL
  ) THEN
    SELECT count(*) INTO spent FROM public_mail_spends WHERE address_key = k AND spent_at > crm_now() - interval '24 hours';
    IF spent >= NEW.visitor_budget THEN
      NEW.status := 'not_sent';
      NEW.last_error := 'Not sent: this address already had ' || NEW.visitor_budget
        || ' emails caused by website visitors in the last 24 hours (PUBLIC_MAIL_PER_ADDRESS_PER_DAY). Send it again if the person asked for it.';
      RETURN NEW;
    END IF;
  END IF;
  INSERT INTO public_mail_spends (address_key, kind) VALUES (k, NEW.kind);
  RETURN NEW;
END;
$function$;

CREATE OR REPLACE TRIGGER emails_visitor_mail BEFORE INSERT ON emails
  FOR EACH ROW WHEN (NEW.visitor_budget IS NOT NULL) EXECUTE FUNCTION crm_visitor_mail();
