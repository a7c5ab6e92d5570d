import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SaveBookingSettings } from '#shared/schemas/booking';
import { ensureAdmin } from '../auth/accounts.ts';
import { getBookingSettings } from '../db/queries/bookings-queries.ts';
import { execute } from '../db/sql.ts';
import { useTestDatabase } from '../test/database.ts';
import { OPEN_EVERY_DAY } from '../test/open-every-day.ts';
import { refusalOf } from '../test/refusal.ts';
import { changeBookingSettings } from './change-booking-settings.ts';

const database = useTestDatabase();
const EMAIL_OFF = 'Email is off on this server (no SMTP_URL), so no confirmation link could be sent. Turn email on first.';
const emailOn = { emailOn: true };
const emailOff = { emailOn: false };

/** The settings as a client that knows nothing of the switch or the website's hosts sends them. */
const { enabled, hours, slot_minutes, buffer_minutes, min_notice_hours, horizon_days, types, days_off } = OPEN_EVERY_DAY;
const plain: SaveBookingSettings = { enabled, hours, slot_minutes, buffer_minutes, min_notice_hours, horizon_days, types, days_off };
const save = (body: Partial<SaveBookingSettings>, email = emailOff) => changeBookingSettings(database.db, { ...plain, ...body }, email);
const member = async (email: string) => (await ensureAdmin(database.db, email, `${email}-password`, 'staff')).user.id;

beforeEach(async () => {
  await execute(database.db, sql`truncate users, booking_settings cascade`);
  await ensureAdmin(database.db, 'olive@example.com', 'olive-password', 'owner');
});

describe('changeBookingSettings', () => {
  it('saves the body, keeps what it leaves out as saved, and answers the settings before and after', async () => {
    const sam = await member('sam@example.com');
    const first = await save({ website_hosts: 'chosen', website_host_ids: [sam], jitsi_links: true });
    expect(first.settings).toMatchObject({
      website_hosts: 'chosen',
      website_host_ids: [sam],
      jitsi_links: true,
      visitors_choose_host: false,
    });
    const second = await save({ slot_minutes: 45 });
    expect(second.before).toEqual(first.settings);
    expect(second.settings).toEqual({ ...first.settings, slot_minutes: 45 });
    expect(await getBookingSettings(database.db)).toEqual(second.settings);
  });

  it('refuses the email confirmation switch on (or saved on) while email is off; a save not naming it keeps it on', async () => {
    for (const body of [{ require_email_confirmation: true }, { require_email_confirmation: true, slot_minutes: 45 }])
      expect(await refusalOf(save(body))).toEqual({
        status: 400,
        message: EMAIL_OFF,
        fields: { require_email_confirmation: EMAIL_OFF },
        slots: undefined,
      });
    expect((await getBookingSettings(database.db)).require_email_confirmation).toBe(false);
    expect((await save({ require_email_confirmation: false })).settings.require_email_confirmation).toBe(false);

    expect((await save({ require_email_confirmation: true }, emailOn)).settings.require_email_confirmation).toBe(true);
    // Email went off since: saving it on again is refused, a save that does not mention it is not.
    expect(await refusalOf(save({ require_email_confirmation: true, slot_minutes: 45 }))).toMatchObject({
      status: 400,
      message: EMAIL_OFF,
    });
    const kept = await save({ slot_minutes: 45 });
    expect(kept.settings).toMatchObject({ require_email_confirmation: true, slot_minutes: 45 });
    expect((await save({ require_email_confirmation: false })).settings.require_email_confirmation).toBe(false);
  });

  it('refuses chosen people who are not active team members, on the field, and saves nothing', async () => {
    const sam = await member('sam@example.com');
    const tess = await member('tess@example.com');
    await execute(database.db, sql`update users set deactivated_at = now() where id = ${tess}`);
    const before = await getBookingSettings(database.db);
    for (const ids of [[sam, tess], [crypto.randomUUID()]])
      expect(await refusalOf(save({ website_hosts: 'chosen', website_host_ids: ids, slot_minutes: 45 }))).toEqual({
        status: 400,
        message: 'That person is not an active team member.',
        fields: { website_host_ids: 'Choose people on the team' },
        slots: undefined,
      });
    expect(await getBookingSettings(database.db)).toEqual(before);
    // Chosen people saved earlier are not asked again by a save that does not name them.
    await save({ website_hosts: 'chosen', website_host_ids: [sam] });
    await execute(database.db, sql`update users set deactivated_at = now() where id = ${sam}`);
    expect((await save({ slot_minutes: 45 })).settings).toMatchObject({ website_host_ids: [sam], slot_minutes: 45 });
  });
});
