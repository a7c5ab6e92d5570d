import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../auth/accounts.ts';
import { saveBookingSettings } from '../db/queries/bookings-queries.ts';
import { execute } from '../db/sql.ts';
import { useTestDatabase } from '../test/database.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { refusalOf } from '../test/refusal.ts';
import { federalHolidaysBetween } from './holidays.ts';
import { saveWorkingHours, workingHoursOf } from './member-working-hours.ts';

const database = useTestDatabase();
const TZ = 'America/New_York';
/** 10 pm on Friday 3 July 2026 in New York (already the 4th in UTC): Independence Day observed. */
const NOW = Date.parse('2026-07-04T02:00:00Z');
const NOT_FOUND = { status: 404, message: 'Account not found.' };
let sam: string;

beforeEach(async () => {
  await execute(database.db, sql`truncate users, booking_settings cascade`);
  await ensureAdmin(database.db, 'olive@example.com', 'olive-password', 'owner');
  sam = (await ensureAdmin(database.db, 'sam@example.com', 'sam-password', 'staff')).user.id;
});

describe('workingHoursOf', () => {
  it('answers the person’s hours, the firm’s hours as saved now, and the holidays of the twelve months from the business date', async () => {
    await saveBookingSettings(database.db, OPEN_EVERY_DAY);
    const hours = await workingHoursOf(database.db, sam, TZ, NOW);
    expect(hours).toEqual({
      bookable: false,
      hours: null,
      days_off: [],
      holidays_off: true,
      meeting_link: null,
      user_id: sam,
      firm_hours: OPEN_EVERY_DAY.hours.map((h) => [h]),
      holidays: federalHolidaysBetween('2026-07-03', '2027-07-03'),
      time_zone: TZ,
    });
    expect(hours.holidays[0]!.date).toBe('2026-07-03');
    expect((await workingHoursOf(database.db, sam, 'UTC', NOW)).holidays[0]!.date).not.toBe('2026-07-03');
  });

  it('refuses an account that does not exist (404)', async () => {
    expect(await refusalOf(workingHoursOf(database.db, crypto.randomUUID(), TZ, NOW))).toMatchObject(NOT_FOUND);
  });
});

describe('saveWorkingHours', () => {
  it('saves and answers the fields given that changed; a link left out stays as saved', async () => {
    expect(await saveWorkingHours(database.db, sam, WORKS_EVERY_DAY)).toEqual(['bookable', 'holidays_off']);
    expect(await saveWorkingHours(database.db, sam, WORKS_EVERY_DAY)).toEqual([]);
    const link = 'https://meet.example.com/sam';
    expect(await saveWorkingHours(database.db, sam, { ...WORKS_EVERY_DAY, days_off: ['2026-07-10'], meeting_link: link })).toEqual([
      'days_off',
      'meeting_link',
    ]);
    expect(await saveWorkingHours(database.db, sam, { ...WORKS_EVERY_DAY, days_off: ['2026-07-10'] })).toEqual([]);
    expect(await workingHoursOf(database.db, sam, TZ, NOW)).toMatchObject({
      bookable: true,
      holidays_off: false,
      days_off: ['2026-07-10'],
      meeting_link: link,
    });
  });

  it('refuses an account that does not exist (404)', async () => {
    expect(await refusalOf(saveWorkingHours(database.db, crypto.randomUUID(), WORKS_EVERY_DAY))).toMatchObject(NOT_FOUND);
  });
});
