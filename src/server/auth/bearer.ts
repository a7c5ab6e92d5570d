import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';

const BEARER = /^bearer(?:\s+(.*))?$/i;

/**
 * The API key a request carries as `Authorization: Bearer <key>` ('' for a bearer without
 * one), or undefined when it carries none. A request with a bearer is the key's alone: its
 * session cookie is ignored (readSessionToken) and it is exempt from the cross-site check,
 * which no browser can abuse (a page on another site cannot add an Authorization header
 * without a CORS preflight, which this server never grants).
 * https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html
 */
export function bearerKeyOf(c: Context<AppEnv>): string | undefined {
  const header = c.req.header('authorization');
  if (header === undefined) return undefined;
  const match = BEARER.exec(header.trim());
  return match ? (match[1] ?? '').trim() : undefined;
}
