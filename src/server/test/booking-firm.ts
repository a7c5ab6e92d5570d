import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Availability, BookingSettings } from '#shared/schemas/booking';
import { addDays, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import type { LinkRequest } from '../booking/link-context.ts';
import type { Database } from '../db/client.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from './test-app.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from './open-every-day.ts';

/** The business time zone of openFirm's firm. */
export const FIRM_TZ = 'America/New_York';

/**
 * For booking/'s own tests, which call its actions directly: a firm whose booking is open every
 * day and whose owner takes website calls (on a cleared database), the app that makes visitors'
 * links through the lead form, and the request booking/ is handed, as routes/bookings-routes.ts builds it.
 */
export async function openFirm(database: Database, env: Record<string, string> = {}) {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, booking_settings, booking_tokens, booking_holds, notifications, emails, public_mail_spends, rate_limits, audit_log, website_settings cascade`,
  );
  const t = createTestApp(database, { BUSINESS_TIME_ZONE: FIRM_TZ, AVAILABILITY_RATE_LIMIT: '0', ...env });
  const { user: owner } = await ensureAdmin(database.db, 'owner@example.com', 'owner-password');
  const cookie = await signIn(t.json, 'owner@example.com', 'owner-password');
  const saveSettings = async (settings: Partial<BookingSettings>) =>
    expect((await t.json('PUT', '/api/booking-settings', { ...OPEN_EVERY_DAY, ...settings }, { cookie })).status).toBe(200);
  await saveSettings({});
  expect((await t.json('PUT', '/api/account/availability', WORKS_EVERY_DAY, { cookie })).status).toBe(200);
  return {
    t,
    owner,
    saveSettings,
    /** What booking/ is handed for a request from `clientIp`. */
    request: (clientIp = '203.0.113.7'): LinkRequest => ({ db: database.db, config: t.config, vault: () => t.vault, clientIp }),
    /** A visitor's booking link, from the lead form. */
    newLink: async (overrides: Record<string, unknown> = {}) => {
      const res = await t.json('POST', '/api/public/leads', validLead(overrides));
      expect(res.status).toBe(201);
      return ((await res.json()) as { booking_token: string }).booking_token;
    },
    /** The open times of the business date `date`, as the website offers them. */
    openTimes: async (date: string) =>
      ((await (await t.json('GET', `/api/public/availability?from=${date}&to=${date}`)).json()) as Availability).slots,
    /** The business date `n` days from today. */
    day: (n: number) => addDays(zonedParts(Date.now(), FIRM_TZ).date, n),
  };
}
