import type { Context } from 'hono';
import type { AppEnv } from './context.ts';
import { AppError } from './errors.ts';
import { publicOrigin } from './public-origin.ts';

/**
 * Cross-site request forgery guard for state-changing requests. A browser sends Origin on
 * every one of them (and Sec-Fetch-Site, in every current engine): it must be this
 * site's origin — scheme, host and port — which is PUBLIC_URL when set, else the origin the
 * request was sent to. A request with neither header is not from a browser: refused, except
 * for the public operations under /api/public/ (lead form, analytics events, bookings),
 * which other programs may call and which no cookie authorises anyway.
 * https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html
 */
export function checkRequestSource(c: Context<AppEnv>) {
  const origin = c.req.header('origin');
  const fetchSite = c.req.header('sec-fetch-site');
  if (origin === undefined && fetchSite === undefined) {
    if (c.req.path.startsWith('/api/public/')) return;
    throw new AppError('forbidden', 'This request needs an Origin header. Send it from the pages of this site.');
  }
  if (fetchSite !== undefined && fetchSite !== 'same-origin') throw new AppError('forbidden', 'Cross-site request refused.');
  if (origin === undefined) return;
  let sent: string;
  try {
    sent = new URL(origin).origin;
  } catch {
    throw new AppError('forbidden', 'Cross-site request refused.');
  }
  if (sent !== publicOrigin(c).origin) throw new AppError('forbidden', 'Cross-site request refused.');
}
