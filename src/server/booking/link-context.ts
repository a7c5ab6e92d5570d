import type { Logger } from 'pino';
import { calendarAccess } from '../calendars/calendar-access.ts';
import { syncBeforeBooking } from '../calendars/sync.ts';
import type { CredentialsVault } from '../lib/credentials.ts';
import type { BookingRequest } from './admission.ts';
import { loadBooking } from './booking-link.ts';

/** How long a booking waits for outside calendars read over a minute ago before using what was last read. */
export const CALENDAR_READ_WAIT_MS = 4_000;

/**
 * A request through a private booking link: who is asking (the website's booking limits count
 * it), and what reading the people's outside calendars first needs (the process's credentials
 * vault, opened only then, and its logger).
 */
export type LinkRequest = BookingRequest & { vault: () => CredentialsVault; logger?: Logger };

/**
 * The link's booking context (loadBooking); with a time to book, the people's outside calendars
 * read over a minute ago are read first (at most CALENDAR_READ_WAIT_MS), so a meeting added
 * since counts.
 */
export async function loadLink(request: LinkRequest, token: string, start?: string) {
  const { db, config } = request;
  const loaded = await loadBooking(db, config.businessTimeZone, token, start);
  const due = loaded.hosts.filter((h) => h.sync_due).map((h) => h.id);
  if (due.length === 0) return loaded;
  const access = calendarAccess(db, config, request.vault(), request.logger);
  if (!(await syncBeforeBooking(access, due, CALENDAR_READ_WAIT_MS))) return loaded;
  return loadBooking(db, config.businessTimeZone, token, start);
}
