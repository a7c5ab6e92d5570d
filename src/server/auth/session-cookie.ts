import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { SESSION_ABSOLUTE_DAYS } from '../db/queries/sessions-queries.ts';
import type { AppEnv } from '../http/context.ts';
import { requestScheme } from '../http/public-origin.ts';
import { bearerKeyOf } from './bearer.ts';

export const SESSION_COOKIE = 'session';

/** Secure when the browser talks https: PUBLIC_URL says so, or the connection (or our trusted proxy's X-Forwarded-Proto). */
function isHttps(c: Context<AppEnv>): boolean {
  if (c.get('deps').config.fixedOrigin?.startsWith('https:')) return true;
  return requestScheme(c) === 'https';
}

/** The session's token; none on a request with an API key (bearer.ts): it acts only as the key. */
export const readSessionToken = (c: Context<AppEnv>) => (bearerKeyOf(c) === undefined ? getCookie(c, SESSION_COOKIE) : undefined);

export function writeSessionCookie(c: Context<AppEnv>, token: string) {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c),
    path: '/',
    maxAge: SESSION_ABSOLUTE_DAYS * 86_400,
  });
}

export function clearSessionCookie(c: Context<AppEnv>) {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c) });
}
