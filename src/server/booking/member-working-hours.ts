import { firmStretches, type MemberAvailability, type MemberAvailabilityResponse } from '#shared/schemas/availability';
import { addDays, zonedParts } from '#shared/zoned-time';
import type { Db } from '../db/client.ts';
import { getMemberAvailability, saveMemberAvailability } from '../db/queries/availability-queries.ts';
import { getBookingSettings } from '../db/queries/bookings-queries.ts';
import { AppError } from '../lib/app-error.ts';
import { federalHolidaysBetween } from './holidays.ts';

/**
 * A team member's Working hours (docs/product-rules.md "Booking", GET and PUT
 * /api/account/availability and /api/team/members/{id}/availability). 404 for no such account.
 */

const noSuchAccount = () => new AppError('not_found', 'Account not found.');

/**
 * What the person sees: their hours, what "the firm's hours" are now, and the federal holidays
 * of the twelve months from the business date of `now` in `timeZone`.
 */
export async function workingHoursOf(db: Db, userId: string, timeZone: string, now: number): Promise<MemberAvailabilityResponse> {
  const value = await getMemberAvailability(db, userId);
  if (!value) throw noSuchAccount();
  const today = zonedParts(now, timeZone).date;
  return {
    ...value,
    meeting_link: value.meeting_link ?? null,
    user_id: userId,
    firm_hours: firmStretches(await getBookingSettings(db)),
    holidays: federalHolidaysBetween(today, addDays(today, 365)),
    time_zone: timeZone,
  };
}

/** Saves the person's working hours; answers the names of the fields given that changed (for the audit log). */
export async function saveWorkingHours(db: Db, userId: string, value: MemberAvailability): Promise<(keyof MemberAvailability)[]> {
  const before = await getMemberAvailability(db, userId);
  if (!before || !(await saveMemberAvailability(db, userId, value))) throw noSuchAccount();
  return (Object.keys(value) as (keyof MemberAvailability)[]).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(value[k]));
}
