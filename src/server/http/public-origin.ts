import type { Context } from 'hono';
import type { AppEnv } from './context.ts';

/**
 * The site's origin as the browser sees it. Behind our own proxy (TRUST_PROXY on) that is
 * X-Forwarded-Proto and X-Forwarded-Host, not the proxy's request to us.
 */
export function publicOrigin(c: Context<AppEnv>): URL {
  const url = new URL(c.req.url);
  let protocol = url.protocol.slice(0, -1);
  let host = c.req.header('host') ?? url.host;
  if (c.get('deps').config.trustProxy) {
    const forwardedProto = c.req.header('x-forwarded-proto');
    const forwardedHost = c.req.header('x-forwarded-host');
    if (forwardedProto === 'http' || forwardedProto === 'https') protocol = forwardedProto;
    if (forwardedHost) host = forwardedHost;
  }
  // Built whole: setting .host on a URL keeps its old port when the new host has none.
  try {
    return new URL(`${protocol}://${host}`);
  } catch {
    return new URL(url.origin); // a malformed Host header: fall back to what we were asked
  }
}
