-- The public booking picker caches open times per availability version (booking/public-availability.ts).
-- Any change that can open or close a slot (a call, the booking settings, a person's hours, an
-- outside calendar's busy times, an account) adds one to this backend's row of
-- availability_versions, once per transaction (the transaction-local setting remembers it was done).
-- The row triggers are deferred to the commit, so that row lock is the last one a transaction takes
-- and is held only while it commits: two transactions never wait on each other for it while
-- holding other rows. TRUNCATE (tests, restores) bumps it too.

CREATE OR REPLACE FUNCTION crm_bump_availability()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF current_setting('crm.availability_bumped', true) IS DISTINCT FROM 'on' THEN
    PERFORM set_config('crm.availability_bumped', 'on', true);
    INSERT INTO availability_versions AS v (shard, version) VALUES (pg_backend_pid() % 16, 1)
      ON CONFLICT (shard) DO UPDATE SET version = v.version + 1;
  END IF;
  RETURN NULL;
END $function$;

-- A constraint trigger cannot be replaced in place: dropped and made again.
DROP TRIGGER IF EXISTS appointments_availability_inserted ON appointments;
CREATE CONSTRAINT TRIGGER appointments_availability_inserted AFTER INSERT OR DELETE ON appointments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION crm_bump_availability();

CREATE OR REPLACE TRIGGER appointments_availability_truncated AFTER TRUNCATE ON appointments
  FOR EACH STATEMENT EXECUTE FUNCTION crm_bump_availability();

-- A constraint trigger cannot be replaced in place: dropped and made again.
DROP TRIGGER IF EXISTS appointments_availability_updated ON appointments;
CREATE CONSTRAINT TRIGGER appointments_availability_updated AFTER UPDATE ON appointments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.status, OLD.date, OLD.time, OLD.duration_minutes, OLD.host_id) IS DISTINCT FROM (NEW.status, NEW.date, NEW.time, NEW.duration_minutes, NEW.host_id))
  EXECUTE FUNCTION crm_bump_availability();

-- A constraint trigger cannot be replaced in place: dropped and made again.
DROP TRIGGER IF EXISTS booking_settings_availability_changed ON booking_settings;
CREATE CONSTRAINT TRIGGER booking_settings_availability_changed AFTER INSERT OR UPDATE OR DELETE ON booking_settings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION crm_bump_availability();

CREATE OR REPLACE TRIGGER booking_settings_availability_truncated AFTER TRUNCATE ON booking_settings
  FOR EACH STATEMENT EXECUTE FUNCTION crm_bump_availability();

-- A constraint trigger cannot be replaced in place: dropped and made again.
DROP TRIGGER IF EXISTS calendar_busy_availability_changed ON calendar_busy;
CREATE CONSTRAINT TRIGGER calendar_busy_availability_changed AFTER INSERT OR DELETE ON calendar_busy
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION crm_bump_availability();

CREATE OR REPLACE TRIGGER calendar_busy_availability_truncated AFTER TRUNCATE ON calendar_busy
  FOR EACH STATEMENT EXECUTE FUNCTION crm_bump_availability();

-- A constraint trigger cannot be replaced in place: dropped and made again.
DROP TRIGGER IF EXISTS user_availability_changed ON user_availability;
CREATE CONSTRAINT TRIGGER user_availability_changed AFTER INSERT OR UPDATE OR DELETE ON user_availability
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION crm_bump_availability();

-- A constraint trigger cannot be replaced in place: dropped and made again.
DROP TRIGGER IF EXISTS users_availability_changed ON users;
CREATE CONSTRAINT TRIGGER users_availability_changed AFTER UPDATE ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.deactivated_at IS NULL, OLD.display_name) IS DISTINCT FROM (NEW.deactivated_at IS NULL, NEW.display_name))
  EXECUTE FUNCTION crm_bump_availability();

-- A constraint trigger cannot be replaced in place: dropped and made again.
DROP TRIGGER IF EXISTS users_availability_deleted ON users;
CREATE CONSTRAINT TRIGGER users_availability_deleted AFTER DELETE ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION crm_bump_availability();
