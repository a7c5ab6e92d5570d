import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { SESSION_ABSOLUTE_DAYS } from '../db/queries/sessions.ts';
import type { AppEnv } from '../http/context.ts';

export const SESSION_COOKIE = 'session';

function isHttps(c: Context<AppEnv>): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return c.get('deps').config.trustProxy && c.req.header('x-forwarded-proto') === 'https';
}

export const readSessionToken = (c: Context<AppEnv>) => getCookie(c, SESSION_COOKIE);

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
