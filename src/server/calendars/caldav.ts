import { createHash } from 'node:crypto';
import { requestUrl } from '../outbound/request-url.ts';
import {
  type CalDavAccount,
  type CalDavCredentials,
  CalDavError,
  type CalDavFetchOptions,
  davMultistatus,
  davRequest,
  type Multistatus,
  NOT_CALDAV,
  resolveHref,
  statusError,
} from './caldav-request.ts';
import { APPLE_ICAL, CALDAV, child, childrenNamed, DAV, type DavResponse, hrefsOf, prop } from './caldav-xml.ts';

/**
 * A CalDAV account (iCloud, Fastmail, Nextcloud, Zoho, any RFC 4791 server): finding its
 * calendars, reading the events of a window, and writing and removing one event. Every request
 * goes through guardedFetch (caldav-request.ts); OutboundError from it passes through as it is.
 */

export { CalDavError, type CalDavAccount, type CalDavCredentials, type CalDavFetchOptions, type CalDavReason } from './caldav-request.ts';

export type CalDavCalendar = { url: string; name: string; color?: string; canWrite: boolean };

const PROPFIND_PRINCIPAL = propfindBody(`<d:current-user-principal/><c:calendar-home-set/><d:resourcetype/>`);
const PROPFIND_HOME = propfindBody(`<c:calendar-home-set/>`);
const PROPFIND_CALENDARS = propfindBody(
  `<d:resourcetype/><d:displayname/><c:supported-calendar-component-set/><d:current-user-privilege-set/><a:calendar-color/>`,
);

/**
 * The calendars of `account` that hold events, found as RFC 6764 section 6 says: the URL the
 * person gave, then the server's /.well-known/caldav, is asked for the signed-in user's
 * principal (RFC 5397); the principal for its calendar homes (RFC 4791 section 6.2.1); each home
 * for the collections in it. A URL that is itself a calendar is answered as that calendar.
 */
export async function discoverCalendars(account: CalDavAccount, options: CalDavFetchOptions): Promise<{ calendars: CalDavCalendar[] }> {
  const start = await startingPoint(account, options);
  const calendars: CalDavCalendar[] = [];
  const seen = new Set<string>();
  for (const home of start.homes) {
    const listing = await davMultistatus(home, account, { method: 'PROPFIND', depth: start.depth, body: PROPFIND_CALENDARS }, options);
    for (const response of listing.responses) {
      const calendar = calendarOf(response, listing.url);
      if (calendar && !seen.has(calendar.url)) {
        seen.add(calendar.url);
        calendars.push(calendar);
      }
    }
  }
  return { calendars };
}

/** The collections to list: the calendar homes (Depth 1), or the calendar the URL names (Depth 0). */
async function startingPoint(account: CalDavAccount, options: CalDavFetchOptions): Promise<{ homes: string[]; depth: '0' | '1' }> {
  // requestUrl: an address that is not one is an OutboundError in plain words, as guardedFetch's are.
  const candidates = [account.url, new URL('/.well-known/caldav', requestUrl(account.url)).href];
  let lastError: CalDavError | undefined;
  for (const candidate of candidates) {
    let answer: Multistatus;
    try {
      answer = await davMultistatus(candidate, account, { method: 'PROPFIND', depth: '0', body: PROPFIND_PRINCIPAL }, options);
    } catch (error) {
      // Another place may still answer; a refused password will not be accepted there either.
      if (!(error instanceof CalDavError) || error.reason === 'auth') throw error;
      lastError = error;
      continue;
    }
    const response = answer.responses[0];
    if (!response) continue;
    // Checked first: servers name the user's principal on every resource, a calendar's included.
    if (child(prop(response, DAV, 'resourcetype'), CALDAV, 'calendar')) return { homes: [answer.url], depth: '0' };
    const homes = hrefsOf(prop(response, CALDAV, 'calendar-home-set')).map((href) => resolveHref(href, answer.url));
    if (homes.length > 0) return { homes, depth: '1' };
    const principal = hrefsOf(prop(response, DAV, 'current-user-principal'))[0];
    if (principal !== undefined) return { homes: await homesOf(resolveHref(principal, answer.url), account, options), depth: '1' };
  }
  throw lastError?.reason === 'server' ? lastError : new CalDavError('not_caldav', NOT_CALDAV, lastError?.status);
}

async function homesOf(principal: string, account: CalDavAccount, options: CalDavFetchOptions): Promise<string[]> {
  const answer = await davMultistatus(principal, account, { method: 'PROPFIND', depth: '0', body: PROPFIND_HOME }, options);
  const homes = answer.responses.flatMap((response) =>
    hrefsOf(prop(response, CALDAV, 'calendar-home-set')).map((href) => resolveHref(href, answer.url)),
  );
  if (homes.length === 0) throw new CalDavError('not_caldav', NOT_CALDAV);
  return homes;
}

/**
 * A response of a home's listing as a calendar, or undefined for anything else (the home itself,
 * address books, inboxes, task lists). Without supported-calendar-component-set a calendar
 * takes every kind of component (RFC 4791 section 5.2.3). Without current-user-privilege-set
 * (RFC 3744 section 5.4) it is not known to be writable, so it is read as read-only.
 */
function calendarOf(response: DavResponse, base: string): CalDavCalendar | undefined {
  if (!child(prop(response, DAV, 'resourcetype'), CALDAV, 'calendar')) return undefined;
  const components = prop(response, CALDAV, 'supported-calendar-component-set');
  if (components && !childrenNamed(components, CALDAV, 'comp').some((comp) => comp.attributes.name?.toUpperCase() === 'VEVENT'))
    return undefined;
  const url = resolveHref(response.href, base);
  const privileges = childrenNamed(prop(response, DAV, 'current-user-privilege-set'), DAV, 'privilege').flatMap((p) => p.children);
  const canWrite = privileges.some((p) => p.ns === DAV && (p.name === 'write' || p.name === 'write-content' || p.name === 'all'));
  const name = prop(response, DAV, 'displayname')?.text.trim() || lastSegment(url);
  const color = colorOf(prop(response, APPLE_ICAL, 'calendar-color')?.text);
  return { url, name, ...(color ? { color } : {}), canWrite };
}

function lastSegment(url: string): string {
  const segments = new URL(url).pathname.split('/').filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** "#FF2968FF" (Apple's #RRGGBBAA) or "#ff2968" as "#ff2968"; anything else is no colour. */
function colorOf(value: string | undefined): string | undefined {
  const match = /^\s*(#[0-9a-f]{6})(?:[0-9a-f]{2})?\s*$/i.exec(value ?? '');
  return match ? match[1]!.toLowerCase() : undefined;
}

/**
 * The iCalendar text of each event resource of the calendar with an instance in `window`
 * (instants, ms): a calendar-query REPORT (RFC 4791 section 7.8) with a time-range on VEVENT.
 * A repeating event comes whole, its rule and exceptions with it, for the reader to expand.
 */
export async function fetchEvents(
  calendarUrl: string,
  account: CalDavCredentials,
  window: { start: number; end: number },
  options: CalDavFetchOptions,
): Promise<string[]> {
  const body = `<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query xmlns:d="DAV:" xmlns:c="${CALDAV}">
  <d:prop><d:getetag/><c:calendar-data/></d:prop>
  <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">
    <c:time-range start="${utcStamp(window.start)}" end="${utcStamp(window.end)}"/>
  </c:comp-filter></c:comp-filter></c:filter>
</c:calendar-query>`;
  const answer = await davMultistatus(calendarUrl, account, { method: 'REPORT', depth: '1', body }, options);
  return answer.responses.map((response) => prop(response, CALDAV, 'calendar-data')?.text ?? '').filter((text) => text.trim() !== '');
}

/** 20300107T090000Z: the form time-range takes (RFC 4791 section 9.9). */
function utcStamp(ms: number): string {
  if (!Number.isFinite(ms)) throw new RangeError('The window must be two instants.');
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/**
 * Writes the event `uid` (an iCalendar document holding it) into the calendar, replacing the
 * one written before under the same uid. Its resource is named after the uid, made safe for a
 * path, so writing again finds the same resource.
 */
export async function putEvent(
  calendarUrl: string,
  account: CalDavCredentials,
  event: { uid: string; ics: string },
  options: CalDavFetchOptions,
): Promise<{ url: string; etag: string | null }> {
  const url = new URL(`${resourceName(event.uid)}.ics`, withSlash(requestUrl(calendarUrl).href)).href;
  const answer = await davRequest(url, account, { method: 'PUT', body: event.ics, contentType: 'text/calendar; charset=utf-8' }, options);
  if (answer.status < 200 || answer.status >= 300) throw statusError(answer);
  const etag = answer.headers.etag;
  return { url: answer.url, etag: typeof etag === 'string' ? etag : null };
}

/** Removes the event at `eventUrl`; one already gone (404, 410) counts as removed. */
export async function deleteEvent(eventUrl: string, account: CalDavCredentials, options: CalDavFetchOptions): Promise<void> {
  const answer = await davRequest(eventUrl, account, { method: 'DELETE' }, options);
  if ((answer.status >= 200 && answer.status < 300) || answer.status === 404 || answer.status === 410) return;
  throw statusError(answer);
}

/**
 * A uid as a resource name: as it is when it is made of letters, digits and `_ . @ -`, else
 * those characters with a hash of the whole uid, so two uids never share a resource and the
 * same uid always finds its own. A uid is any text (RFC 5545 section 3.8.4.7); a `/` or `%`
 * in a path is read differently by different servers.
 */
export function resourceName(uid: string): string {
  if (/^[A-Za-z0-9_@-][A-Za-z0-9_.@-]{0,119}$/.test(uid)) return uid;
  const readable = uid.replace(/[^A-Za-z0-9_@-]+/g, '-').slice(0, 60);
  return `${readable}-${createHash('sha256').update(uid).digest('hex').slice(0, 16)}`;
}

/** A collection's URL with its closing slash: what its members' URLs start with. */
export function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

function propfindBody(props: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:" xmlns:c="${CALDAV}" xmlns:a="${APPLE_ICAL}"><d:prop>${props}</d:prop></d:propfind>`;
}
