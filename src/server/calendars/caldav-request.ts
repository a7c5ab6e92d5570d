import type { AllowedHost } from '../outbound/address-policy.ts';
import { guardedFetch, type GuardedResponse } from '../outbound/guarded-fetch.ts';
import { type DavResponse, readMultistatus, XmlError } from './caldav-xml.ts';

/**
 * One request to a CalDAV server, through guardedFetch (the server's one way to a URL a person
 * typed), with the account's credentials as HTTP basic authentication, and the answers that
 * are not what was asked for turned into a CalDavError in plain words. Messages name the host
 * at most, never a path or a credential: they are shown to the person as they are.
 */

/** What signs in: the account's CalDAV URL is needed only to find its calendars. */
export type CalDavCredentials = { username: string; password: string };
export type CalDavAccount = CalDavCredentials & { url: string };

export type CalDavFetchOptions = {
  /** config.outboundAllowHosts. */
  allowHosts: readonly AllowedHost[];
  lookupAddresses?: (name: string) => Promise<string[]>;
  timeoutMs?: number;
  maxBodyBytes?: number;
};

export type CalDavReason = 'auth' | 'forbidden' | 'not_caldav' | 'not_found' | 'conflict' | 'server';

export class CalDavError extends Error {
  override readonly name = 'CalDavError';

  constructor(
    readonly reason: CalDavReason,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export const NOT_CALDAV = 'This server does not offer CalDAV at that address.';

type DavRequest = { method: string; depth?: '0' | '1'; body?: string; contentType?: string };

/**
 * The answer of `url` to `request`. A 401 is a CalDavError ("auth"); every other status is the
 * caller's to judge. When the server sent the request on to another origin (a well-known
 * address pointing to the provider's CalDAV host), guardedFetch left the credentials behind;
 * if that origin asks for them, the request is made again there with them, once, as CalDAV
 * clients do: the server the person named chose it.
 */
export async function davRequest(
  url: string,
  account: CalDavCredentials,
  request: DavRequest,
  options: CalDavFetchOptions,
): Promise<GuardedResponse> {
  let answer = await send(url, account, request, options);
  if (answer.status === 401 && new URL(answer.url).origin !== new URL(url).origin)
    answer = await send(answer.url, account, request, options);
  if (answer.status === 401) {
    throw new CalDavError(
      'auth',
      `${hostOf(answer.url)} did not accept the username or password. Check them; some providers (iCloud, Fastmail) need an app-specific password.`,
      401,
    );
  }
  return answer;
}

function send(url: string, account: CalDavCredentials, request: DavRequest, options: CalDavFetchOptions): Promise<GuardedResponse> {
  const headers: Record<string, string> = {};
  if (request.depth !== undefined) headers.depth = request.depth;
  if (request.body !== undefined) headers['content-type'] = request.contentType ?? 'application/xml; charset=utf-8';
  return guardedFetch(url, {
    method: request.method,
    headers,
    body: request.body,
    basicAuth: { username: account.username, password: account.password },
    allowHosts: options.allowHosts,
    lookupAddresses: options.lookupAddresses,
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxBodyBytes,
  });
}

export type Multistatus = { responses: DavResponse[]; url: string };

/**
 * The multistatus `url` answers a PROPFIND or REPORT with, and the URL that answered (after
 * redirects), against which its hrefs are resolved. Anything but a readable 207 is a CalDavError.
 */
export async function davMultistatus(
  url: string,
  account: CalDavCredentials,
  request: DavRequest,
  options: CalDavFetchOptions,
): Promise<Multistatus> {
  const answer = await davRequest(url, account, request, options);
  if (answer.status !== 207) throw statusError(answer);
  try {
    return { responses: readMultistatus(answer.text()), url: answer.url };
  } catch (error) {
    if (error instanceof XmlError) throw new CalDavError('not_caldav', NOT_CALDAV, answer.status);
    throw error;
  }
}

/** What a status other than the one expected means, for the person. */
export function statusError(answer: GuardedResponse): CalDavError {
  const host = hostOf(answer.url);
  const { status } = answer;
  if (status === 403) return new CalDavError('forbidden', `${host} does not allow this account to do that.`, status);
  if (status === 404 || status === 410)
    return new CalDavError('not_found', `${host} has no calendar at that address; it may have been deleted.`, status);
  if (status === 409 || status === 412)
    return new CalDavError('conflict', `${host} refused the change because it conflicts with what it holds.`, status);
  if (status >= 500) return new CalDavError('server', `${host} answered with an error (HTTP ${status}). Please try again later.`, status);
  return new CalDavError('not_caldav', NOT_CALDAV, status);
}

/** `href` (often a path) as an absolute URL, read against the URL that answered. */
export function resolveHref(href: string, base: string): string {
  return new URL(href, base).href;
}

function hostOf(url: string): string {
  return new URL(url).hostname;
}
