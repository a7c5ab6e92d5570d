-- One-time links (an invitation's or a password reset's `link`, a booking's private `manage_path`)
-- are kept in a message's data only while it waits to be sent: a message sent, failed or recorded
-- not sent holds none. Runs after emails_visitor_mail (triggers of one event fire by name).

CREATE OR REPLACE FUNCTION crm_email_without_link()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW.status <> 'queued' THEN
    NEW.data := NEW.data - 'link' - 'manage_path';
  END IF;
  RETURN NEW;
END;
$function$;

CREATE OR REPLACE TRIGGER emails_without_link BEFORE INSERT OR UPDATE ON emails
  FOR EACH ROW EXECUTE FUNCTION crm_email_without_link();
