import type { BookingSettings } from '#shared/schemas/booking';
import { canonicalTimeZone, zonedParts } from '#shared/zoned-time';
import type { Db } from '../db/client.ts';
import { readBookingContext, type BookingRow } from '../db/queries/bookings-queries.ts';
import { hitRateLimit } from '../db/queries/rate-limits-queries.ts';
import { hashToken } from '../lib/secret-token.ts';
import { AppError, tooManyRequests } from '../lib/app-error.ts';

/**
 * What a private booking link may do (docs/product-rules.md, "Booking a call"): book one call
 * while booking is open, then move or cancel it until the minimum notice before it, a few
 * times an hour.
 */

export const LINK_INVALID = 'This booking link is not valid or has expired.';
export const BOOKING_CLOSED = 'Online booking is closed. We will call you to agree a time.';
export const ALREADY_BOOKED = 'You already have a call booked. Use your private link to move it.';
export const TOO_LATE = (hours: number) =>
  `This call can no longer be changed online (less than ${hours} hours before it). Please call us.`;
/** Changes through one link per hour: each tells every admin, so a link cannot flood them. */
export const CHANGES_PER_LINK_PER_HOUR = 10;

/**
 * The link, the settings and (given a start) the people who take calls with their calls of
 * that business date, in one read; 404 for a link we never made.
 */
export async function loadBooking(db: Db, timeZone: string, token: string, start?: string) {
  const hash = hashToken(token);
  const date = start === undefined ? undefined : zonedParts(Date.parse(start), timeZone).date;
  const { booking: row, settings, hosts } = await readBookingContext(db, hash, timeZone, date);
  if (!row) throw new AppError('not_found', LINK_INVALID);
  return { row, settings, hash, timeZone, hosts };
}

/** Online booking is on (409 with no times to offer when the owners closed it). */
export function requireBookingOpen(settings: BookingSettings) {
  if (!settings.enabled) throw new AppError('conflict', BOOKING_CLOSED, undefined, undefined, { slots: [] });
}

/** The link has no scheduled call yet: a link books one call, and moves it after. */
export function requireNoCallBooked(row: BookingRow) {
  if (row.appointment?.status === 'scheduled') throw new AppError('conflict', ALREADY_BOOKED);
}

/** The kind of call is one the owners offer online. */
export function requireBookableType(settings: BookingSettings, type: string) {
  if (!(settings.types as string[]).includes(type)) {
    throw new AppError('validation_failed', 'That kind of call cannot be booked online.', { type: 'Choose one of the kinds offered' });
  }
}

/** The booked call, which must still be changeable: scheduled, and at least the minimum notice away. */
export function requireChangeable(row: BookingRow, settings: BookingSettings, now = Date.now()) {
  const a = row.appointment;
  if (!a || a.status !== 'scheduled') throw new AppError('unprocessable', 'There is no booked call to change.');
  if (a.start - now < settings.min_notice_hours * 3_600_000) throw new AppError('unprocessable', TOO_LATE(settings.min_notice_hours));
  return a;
}

/** Counts one change (move or cancel) through the link `hash`; 429 past the hourly limit. */
export async function limitChanges(db: Db, hash: string) {
  const limit = await hitRateLimit(db, `booking:${hash}`, CHANGES_PER_LINK_PER_HOUR, 3600);
  if (!limit.allowed) throw tooManyRequests(limit.retryAfterSeconds, 'changes to this booking');
}

/** The visitor's time zone as sent (checked by the schema), in the runtime's own spelling; null when not sent. */
export const visitorZoneOf = (sent: string | undefined) => (sent === undefined ? null : (canonicalTimeZone(sent) ?? null));
