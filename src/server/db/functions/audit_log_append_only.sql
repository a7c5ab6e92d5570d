-- The audit log is append-only: no entry is changed or deleted, with two exceptions. Removing an
-- account nulls its entries' actor_id and must leave everything else as it was (the name too); and
-- the retention job deletes old entries with crm.audit_maintenance = 'on' set in its own transaction
-- (db/queries/audit-log-queries.ts).

CREATE OR REPLACE FUNCTION audit_log_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF coalesce(current_setting('crm.audit_maintenance', true), '') = 'on' THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW."actor_id" IS NULL AND OLD."actor_id" IS NOT NULL
     AND (NEW."id", NEW."at", NEW."actor_email", NEW."actor_name", NEW."action", NEW."target_type", NEW."target_id", NEW."details", NEW."ip", NEW."user_agent")
         IS NOT DISTINCT FROM (OLD."id", OLD."at", OLD."actor_email", OLD."actor_name", OLD."action", OLD."target_type", OLD."target_id", OLD."details", OLD."ip", OLD."user_agent") THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'Audit log entries cannot be changed or deleted.' USING ERRCODE = 'insufficient_privilege';
END $function$;

CREATE OR REPLACE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
