CREATE TABLE "availability_versions" (
	"shard" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "availability_versions_shard_check" CHECK ("availability_versions"."shard" between 0 and 15)
);
--> statement-breakpoint
-- Adds one to this backend's row of availability_versions, once per transaction (the
-- transaction-local setting remembers it was done). Run at commit by the deferred triggers
-- below, so the row lock is the last one a transaction takes and is held only while it
-- commits: two transactions never wait on each other for it while holding other rows.
CREATE FUNCTION crm_bump_availability() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('crm.availability_bumped', true) IS DISTINCT FROM 'on' THEN
    PERFORM set_config('crm.availability_bumped', 'on', true);
    INSERT INTO availability_versions AS v (shard, version) VALUES (pg_backend_pid() % 16, 1)
      ON CONFLICT (shard) DO UPDATE SET version = v.version + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER appointments_availability_inserted AFTER INSERT OR DELETE ON appointments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION crm_bump_availability();
--> statement-breakpoint
-- Only what the open times read: a reminder marked sent or a note edited changes nothing.
CREATE CONSTRAINT TRIGGER appointments_availability_updated AFTER UPDATE ON appointments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.status, OLD.date, OLD.time, OLD.duration_minutes) IS DISTINCT FROM (NEW.status, NEW.date, NEW.time, NEW.duration_minutes))
  EXECUTE FUNCTION crm_bump_availability();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER booking_settings_availability_changed AFTER INSERT OR UPDATE OR DELETE ON booking_settings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION crm_bump_availability();
--> statement-breakpoint
CREATE TRIGGER appointments_availability_truncated AFTER TRUNCATE ON appointments
  FOR EACH STATEMENT EXECUTE FUNCTION crm_bump_availability();
--> statement-breakpoint
CREATE TRIGGER booking_settings_availability_truncated AFTER TRUNCATE ON booking_settings
  FOR EACH STATEMENT EXECUTE FUNCTION crm_bump_availability();
