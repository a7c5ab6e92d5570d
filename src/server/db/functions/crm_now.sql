-- The product's clock: every statement the product runs asks crm_now() where it would ask now()
-- (docs/testing.md, "The database's clock"). It is now(), the start of the transaction, unless the
-- setting crm.test_now holds an instant: then it is that instant, frozen, so a test can stand
-- inside a rate-limit window or at a given minute. Only tests set it (src/server/test/database-clock.ts);
-- a server that finds it set outside NODE_ENV=test refuses to start (db/test-clock-guard.ts).
-- A plain SQL expression of STABLE functions, so PostgreSQL inlines it into each statement and
-- an index condition on crm_now() is evaluated once per scan, as one on now() is.

CREATE OR REPLACE FUNCTION crm_now()
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  SELECT coalesce(nullif(current_setting('crm.test_now', true), '')::timestamptz, now())
$function$;
