-- The team keeps an active owner even when two changes race. Every change that takes an active owner
-- away takes one transaction-scoped advisory lock first, so such changes run one after the other,
-- and only then counts the owners: under READ COMMITTED that count is a new snapshot, which sees
-- what the change before it committed. The app takes the same lock at the start of its transactions
-- (db/queries/team-queries.ts, lockTeamOwners; auth/admin-commands.ts), before touching any row, so two of
-- them queue rather than deadlock; taking it here too covers every other writer (a psql session, a
-- future tool).

CREATE OR REPLACE FUNCTION users_keep_an_owner()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('team-owners'));
  IF EXISTS (SELECT 1 FROM "users") AND NOT EXISTS (SELECT 1 FROM "users" WHERE "role" = 'owner' AND "deactivated_at" IS NULL) THEN
    RAISE EXCEPTION 'The team must keep at least one active owner.' USING ERRCODE = 'check_violation', CONSTRAINT = 'users_keep_an_owner';
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER users_keep_an_owner_delete AFTER DELETE ON users FOR EACH ROW
  WHEN (OLD.role = 'owner' AND OLD.deactivated_at IS NULL)
  EXECUTE FUNCTION users_keep_an_owner();

CREATE OR REPLACE TRIGGER users_keep_an_owner_update AFTER UPDATE OF role, deactivated_at ON users FOR EACH ROW
  WHEN (OLD.role = 'owner' AND OLD.deactivated_at IS NULL AND (NEW.role IS DISTINCT FROM 'owner' OR NEW.deactivated_at IS NOT NULL))
  EXECUTE FUNCTION users_keep_an_owner();
