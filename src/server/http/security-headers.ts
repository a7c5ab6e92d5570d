import type { ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';

/** Only our own scripts, styles, images and API; nobody may frame us. */
export const CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** A policy as its header says it: `default-src 'self'; script-src 'self'; …`. */
export const cspText = (policy: Record<string, string[]>) =>
  Object.entries(policy)
    .map(([k, v]) => `${k.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)} ${v.join(' ')}`)
    .join('; ');

/**
 * The admin app's dialogs lock page scroll with an injected <style> element (Radix via
 * react-remove-scroll), so its shell also allows inline styles. Scripts stay 'self' only.
 */
export const ADMIN_APP_CSP = cspText({ ...CSP, styleSrc: ["'self'", "'unsafe-inline'"] });

/**
 * Every response's security headers (those of Hono's secureHeaders with our policy; HSTS is
 * the HTTPS proxy's to send), set before the handler runs so that a handler may replace one
 * (the admin shell's policy, a private link's Referrer-Policy) and an error answer carries
 * them too.
 */
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ['Content-Security-Policy', cspText(CSP)],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'DENY'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

/**
 * Gives the response a header unless the handler sets its own: on Node's response when the
 * request came through Node (its writeHead merges them, the handler's headers first), else
 * (`app.request()` in tests) on Hono's. Hono's way builds a WHATWG Headers object for every
 * response, and the security headers through it were a large part of an analytics event's
 * cost (docs/performance.md, "Measurements behind the code").
 */
export function defaultHeader(c: Context, name: string, value: string): void {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing) outgoing.setHeader(name, value);
  else c.header(name, value);
}

export const securityHeaders: MiddlewareHandler = async (c, next) => {
  for (const [name, value] of SECURITY_HEADERS) defaultHeader(c, name, value);
  await next();
};
