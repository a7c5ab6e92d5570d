import type { Context } from 'hono';
import type { AppEnv } from './context.ts';

/**
 * The site's origin as the browser sees it. Behind our own proxy (TRUST_PROXY on) that is
 * X-Forwarded-Proto and X-Forwarded-Host, not the proxy's request to us.
 */
export function publicOrigin(c: Context<AppEnv>): URL {
  const url = new URL(c.req.url);
  const host = c.req.header('host');
  if (host) url.host = host;
  if (c.get('deps').config.trustProxy) {
    const proto = c.req.header('x-forwarded-proto');
    const forwardedHost = c.req.header('x-forwarded-host');
    if (proto === 'http' || proto === 'https') url.protocol = `${proto}:`;
    if (forwardedHost) url.host = forwardedHost;
  }
  return new URL(url.origin);
}
