-- Whether any unpaused webhook endpoint listens for an event type: the webhook triggers record
-- nothing otherwise. PL/pgSQL rather than SQL: a SQL function called from a trigger is parsed and
-- planned again at every call, while PL/pgSQL keeps its statements' plans for the session.

CREATE OR REPLACE FUNCTION crm_webhook_listened(p_type text)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN EXISTS (SELECT 1 FROM webhook_endpoints WHERE paused_at IS NULL AND events @> ARRAY[p_type]);
END $function$;
