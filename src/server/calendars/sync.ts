import type { Busy } from '../lib/busy-times.ts';
import { getBookingSettings } from '../db/queries/bookings-queries.ts';
import {
  claimDueConnections,
  claimStaleConnectionsOf,
  storeSyncFailure,
  storeSyncSuccess,
  type ClaimedConnection,
} from '../db/queries/calendar-connections-queries.ts';
import { calendarSecretContext } from '../db/sealed-secrets.ts';
import { guardedFetch } from '../outbound/guarded-fetch.ts';
import { OutboundError } from '../outbound/outbound-error.ts';
import { IcsError, readIcsBusy } from './read-ics.ts';
import { readCalDavBusy } from './caldav-account.ts';
import type { CalendarAccess } from './calendar-access.ts';
import { type CalendarRead, CalendarReadError, digestOf, READ_TIMEOUT_MS, waitAtMost } from './calendar-read.ts';

/**
 * Reading people's outside calendars into busy times (calendar_busy). A connection is read
 * every SYNC_EVERY_SECONDS by whichever process claims it first, on demand ("Sync now"), and
 * before a website booking is confirmed when its last read is over BEFORE_BOOKING_SECONDS old.
 * A failed read keeps the busy times last read (they stay in force, marked stale) and tells
 * the person once per run of failures.
 */

export const SYNC_EVERY_SECONDS = 5 * 60;
export const BEFORE_BOOKING_SECONDS = 60;
/** A calendar's text: Google's busiest feeds are a few MB. */
const MAX_CALENDAR_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 15_000;
/** Busy times are kept from a week back (the calendar page's current week) to the booking window's end. */
const KEEP_BEHIND_MS = 7 * 86_400_000;
const KEEP_AHEAD_EXTRA_DAYS = 2;

export { CalendarReadError, type CalendarRead };

/** The window of busy times kept, from `now`. */
export function keptWindow(now: number, horizonDays: number): Busy {
  return { start: now - KEEP_BEHIND_MS, end: now + (horizonDays + KEEP_AHEAD_EXTRA_DAYS) * 86_400_000 };
}

/** Fetches the iCal link `url` (through the guarded fetcher) and reads its busy times within `window`. */
export async function readIcsLink(access: CalendarAccess, url: string, window: Busy): Promise<CalendarRead> {
  let text: string;
  try {
    const answer = await guardedFetch(url, {
      webcal: true,
      allowHosts: access.allowHosts,
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBodyBytes: MAX_CALENDAR_BYTES,
      headers: { accept: 'text/calendar, */*;q=0.5' },
      ...(access.lookupAddresses && { lookupAddresses: access.lookupAddresses }),
    });
    if (answer.status !== 200) throw new CalendarReadError(statusMessage(answer.status, new URL(answer.url).hostname));
    text = answer.text();
  } catch (error) {
    if (error instanceof OutboundError) throw new CalendarReadError(error.message);
    throw error;
  }
  try {
    const read = await readIcsBusy(text, window, { defaultTimeZone: access.timeZone, timeoutMs: READ_TIMEOUT_MS });
    return { ...read, digest: digestOf(read.busy) };
  } catch (error) {
    if (error instanceof IcsError) throw new CalendarReadError(error.message);
    throw error;
  }
}

function statusMessage(status: number, host: string): string {
  if (status === 401 || status === 403 || status === 404)
    return `${host} answered that the link is not valid (HTTP ${status}). If the calendar's secret address was reset, copy the new one and connect it again.`;
  if (status >= 500) return `${host} had a problem answering (HTTP ${status}). It will be tried again.`;
  return `${host} answered HTTP ${status} instead of a calendar.`;
}

/** The URL a claimed iCal connection reads (its sealed secret opened). */
function linkOf(access: CalendarAccess, c: ClaimedConnection): string {
  if (!access.vault.available) throw new CalendarReadError(access.vault.reason);
  const secret = JSON.parse(access.vault.open(c.secret, calendarSecretContext(c.id))) as { url?: unknown };
  if (typeof secret.url !== 'string') throw new CalendarReadError('This calendar’s stored link is unreadable; connect it again.');
  return secret.url;
}

/** Reads a claimed connection and stores what it found, or its failure; whether it succeeded. */
export async function syncClaimed(access: CalendarAccess, c: ClaimedConnection, horizonDays?: number): Promise<boolean> {
  const horizon = horizonDays ?? (await getBookingSettings(access.db)).horizon_days;
  try {
    const window = keptWindow(Date.now(), horizon);
    const read = c.kind === 'ics' ? await readIcsLink(access, linkOf(access, c), window) : await readCalDavBusy(access, c, window);
    await storeSyncSuccess(access.db, c, read);
    return true;
  } catch (error) {
    const message = error instanceof CalendarReadError ? error.message : 'Something went wrong reading it. It will be tried again.';
    if (!(error instanceof CalendarReadError))
      access.logger?.error({ err: error, event: 'calendar_sync_failed', connection: c.id }, 'calendar sync failed');
    const told = await storeSyncFailure(access.db, c, message);
    access.logger?.info({ event: 'calendar_sync_error', connection: c.id, told }, 'a calendar could not be synced');
    return false;
  }
}

/** The periodic sync: every due connection (a few at a time, two at once), whichever process claims it. */
export async function syncDueCalendars(access: CalendarAccess, limit = 10): Promise<number> {
  const claimed = await claimDueConnections(access.db, SYNC_EVERY_SECONDS, limit);
  if (claimed.length === 0) return 0;
  const horizon = (await getBookingSettings(access.db)).horizon_days;
  await inTwos(claimed, (c) => syncClaimed(access, c, horizon));
  return claimed.length;
}

/**
 * Before a booking is confirmed: reads the calendars of `userIds` last read over a minute ago,
 * waiting at most `deadlineMs` (a slow calendar server does not hold the visitor; what was
 * last read stays in force). A calendar another process is reading right now is not waited for.
 */
export async function syncBeforeBooking(access: CalendarAccess, userIds: readonly string[], deadlineMs: number): Promise<boolean> {
  const claimed = await claimStaleConnectionsOf(access.db, userIds, BEFORE_BOOKING_SECONDS);
  if (claimed.length === 0) return false;
  await waitAtMost(
    inTwos(claimed, (c) => syncClaimed(access, c)),
    deadlineMs,
  );
  return true;
}

async function inTwos<T>(items: readonly T[], run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all([worker(), worker()]);
}
