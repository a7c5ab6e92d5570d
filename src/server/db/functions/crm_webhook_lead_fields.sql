-- What a lead's API answer shows, less what lead.stage_changed reports (stage, status, lost reason)
-- and what is not the person's record (timestamps, the reply token, derived columns): a change of
-- these fields is a lead.updated event.

CREATE OR REPLACE FUNCTION crm_webhook_lead_fields(l leads)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT to_jsonb(l) - ARRAY['updated_at', 'stage_id', 'status', 'contacted', 'lost_reason', 'stage_entered_at', 'reply_token', 'phone_digits']
$function$;
