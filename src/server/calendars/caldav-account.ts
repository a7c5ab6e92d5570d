import type { Busy } from '../lib/busy-times.ts';
import { writtenUids } from '../db/queries/calendar-writes-queries.ts';
import type { StoredCalendar } from '../db/queries/calendar-connections-queries.ts';
import { calendarSecretContext } from '../db/sealed-secrets.ts';
import { OutboundError } from '../outbound/outbound-error.ts';
import { type CalDavAccount, CalDavError, type CalDavFetchOptions, discoverCalendars, fetchEvents } from './caldav.ts';
import { IcsError, readIcsBusy } from './read-ics.ts';
import type { CalendarAccess } from './calendar-access.ts';
import { type CalendarRead, calendarServiceOf, CalendarReadError, digestOf, READ_TIMEOUT_MS } from './calendar-read.ts';

/**
 * A CalDAV account as the product uses it: found and listed when connected, read for busy
 * times (the calendars its owner chose), its secret (server address, username, app password)
 * sealed in the database and opened only here.
 */

/** A CalDAV server's answers: a calendar's month of events is a few hundred KB. */
const MAX_ANSWER_BYTES = 10 * 1024 * 1024;
const TIMEOUT_MS = 15_000;

export function davOptions(access: CalendarAccess): CalDavFetchOptions {
  return {
    allowHosts: access.allowHosts,
    timeoutMs: TIMEOUT_MS,
    maxBodyBytes: MAX_ANSWER_BYTES,
    ...(access.lookupAddresses && { lookupAddresses: access.lookupAddresses }),
  };
}

/** What a person sees of a CalDAV account: "dana@example.com on iCloud". */
export function calDavLabel(account: CalDavAccount): string {
  return `${account.username} on ${calendarServiceOf(account.url)}`;
}

/** The account's event calendars, or a CalendarReadError in words (wrong password, not CalDAV, unreachable). */
export async function findCalendars(access: CalendarAccess, account: CalDavAccount): Promise<StoredCalendar[]> {
  try {
    const { calendars } = await discoverCalendars(account, davOptions(access));
    if (calendars.length === 0) throw new CalendarReadError('The account has no calendars for events.');
    return calendars.map((c) => ({ url: c.url, name: c.name, can_write: c.canWrite }));
  } catch (error) {
    throw asReadError(error);
  }
}

/** The account a sealed CalDAV secret holds. */
export function openAccount(access: CalendarAccess, secret: string, connectionId: string): CalDavAccount {
  if (!access.vault.available) throw new CalendarReadError(access.vault.reason);
  const opened = JSON.parse(access.vault.open(secret, calendarSecretContext(connectionId))) as Partial<CalDavAccount>;
  if (typeof opened.url !== 'string' || typeof opened.username !== 'string' || typeof opened.password !== 'string')
    throw new CalendarReadError('This account’s stored sign-in is unreadable; connect it again.');
  return { url: opened.url, username: opened.username, password: opened.password };
}

/**
 * The busy times of the chosen calendars within `window`: each calendar's events of the window
 * (a calendar-query), read together in the calendar reader's thread, less the booked calls this
 * product wrote there itself.
 */
export async function readCalDavBusy(
  access: CalendarAccess,
  c: { id: string; secret: string; busy_calendars: readonly string[] },
  window: Busy,
): Promise<CalendarRead> {
  const account = openAccount(access, c.secret, c.id);
  const texts: string[] = [];
  try {
    for (const calendar of c.busy_calendars) texts.push(...(await fetchEvents(calendar, account, window, davOptions(access))));
  } catch (error) {
    throw asReadError(error);
  }
  if (texts.length === 0) return { busy: [], warnings: [], digest: digestOf([]) };
  try {
    const read = await readIcsBusy(texts.join('\r\n'), window, {
      defaultTimeZone: access.timeZone,
      timeoutMs: READ_TIMEOUT_MS,
      skipUids: await writtenUids(access.db, c.id),
    });
    return { ...read, digest: digestOf(read.busy) };
  } catch (error) {
    if (error instanceof IcsError) throw new CalendarReadError(error.message);
    throw error;
  }
}

/** CalDAV's and the guarded fetcher's errors are already in words for the person; anything else is ours. */
export function asReadError(error: unknown): unknown {
  if (error instanceof CalDavError || error instanceof OutboundError) return new CalendarReadError(error.message);
  return error;
}
