import type { Context } from 'hono';
import type { AppEnv } from './context.ts';

/**
 * The origin a request was sent to, as the browser saw it: the scheme of the connection and
 * the Host header, or, from a trusted proxy (TRUST_PROXY), its X-Forwarded-Proto and
 * X-Forwarded-Host. Undefined for a Host that is not a host.
 */
export function requestOrigin(c: Context<AppEnv>): URL | undefined {
  const { protocol, host } = requestTarget(c);
  return originOf(protocol, host);
}

/** 'https' or 'http': the connection's, or a trusted proxy's X-Forwarded-Proto. */
export const requestScheme = (c: Context<AppEnv>) => requestTarget(c).protocol;

export function requestTarget(c: Context<AppEnv>): { protocol: string; host: string } {
  const url = new URL(c.req.url);
  let protocol = url.protocol.slice(0, -1);
  let host = c.req.header('host') ?? url.host;
  if (c.get('viaTrustedProxy')) {
    const forwardedProto = c.req.header('x-forwarded-proto')?.trim().toLowerCase();
    const forwardedHost = c.req.header('x-forwarded-host')?.trim();
    if (forwardedProto === 'http' || forwardedProto === 'https') protocol = forwardedProto;
    if (forwardedHost) host = forwardedHost;
  }
  return { protocol, host };
}

function originOf(protocol: string, host: string): URL | undefined {
  // Built whole: setting .host on a URL keeps its old port when the new host has none.
  try {
    const origin = new URL(`${protocol}://${host}`);
    // "a.example/x" or "a.example?x" parse, with the rest as a path or query: not a host.
    return origin.href === `${origin.origin}/` ? origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The site's origin, for links and the cross-site check: PUBLIC_URL when it is set (never
 * the request's Host then), otherwise the request's own origin.
 */
export function publicOrigin(c: Context<AppEnv>): URL {
  const fixed = c.get('deps').config.fixedOrigin;
  if (fixed) return new URL(fixed);
  return requestOrigin(c) ?? new URL(new URL(c.req.url).origin);
}

/**
 * With PUBLIC_URL set, a request for another host was not meant for us: a DNS rebinding
 * attack points a name of the attacker's at this server, so that pages of the attacker's
 * origin can read its answers. Answered 421 Misdirected Request (RFC 9110, 15.5.20).
 */
export function isMisdirected(c: Context<AppEnv>): boolean {
  const fixed = c.get('deps').config.fixedOrigin;
  if (!fixed) return false;
  const expected = new URL(fixed);
  // Read with PUBLIC_URL's scheme, so "crm.example.com:443" is crm.example.com for https.
  return originOf(expected.protocol.slice(0, -1), requestTarget(c).host)?.host !== expected.host;
}
