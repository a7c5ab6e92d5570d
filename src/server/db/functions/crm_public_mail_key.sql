-- Mail that website visitors cause (docs/security.md, "Mail that visitors cause"). The key of a
-- recipient: the SHA-256 of the address, trimmed and in lower case (so "Jane@X.com " is jane@x.com).

CREATE OR REPLACE FUNCTION crm_public_mail_key(address text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT encode(sha256(convert_to(lower(btrim(address)), 'UTF8')), 'hex')
$function$;
