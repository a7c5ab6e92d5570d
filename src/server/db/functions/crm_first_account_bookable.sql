-- The first account made takes the website's calls, so a new install books from the start.

CREATE OR REPLACE FUNCTION crm_first_account_bookable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM user_availability WHERE bookable) AND NOT EXISTS (SELECT 1 FROM users WHERE id <> NEW.id) THEN
    INSERT INTO user_availability (user_id, bookable) VALUES (NEW.id, true) ON CONFLICT (user_id) DO NOTHING;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER users_first_account_bookable AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION crm_first_account_bookable();
