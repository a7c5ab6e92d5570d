import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { openFirm } from '../../test/booking-firm.ts';
import { refusalOf } from '../../test/refusal.ts';
import { rowsOf, useTestDatabase } from '../../test/database.ts';
import { ALREADY_BOOKED, BOOKING_CLOSED } from '../booking-link.ts';
import { SLOT_TAKEN } from '../open-slot.ts';
import { handleNewBooking } from './new-booking.ts';

const database = useTestDatabase();
const MAIL_ON = { SMTP_URL: 'smtp://127.0.0.1:9', PUBLIC_URL: 'http://127.0.0.1:3000' };
let firm: Awaited<ReturnType<typeof openFirm>>;
beforeEach(async () => {
  firm = await openFirm(database, MAIL_ON);
});

const scheduled = () =>
  rowsOf<{ host_id: string; booked_network: string; visitor_time_zone: string | null }>(
    database.db,
    sql`select host_id, booked_network, visitor_time_zone from appointments where status = 'scheduled'`,
  );

describe('handleNewBooking', () => {
  it('books an open time at once with the person free then, from the client’s network, in the visitor’s time zone', async () => {
    const token = await firm.newLink({ full_name: 'Jane Doe' });
    const slot = (await firm.openTimes(firm.day(2)))[2]!;
    const made = await handleNewBooking(firm.request('198.51.100.20'), {
      booking_token: token,
      start: slot,
      type: 'Call',
      time_zone: 'Europe/Paris',
    });
    expect(made.held).toBe(false);
    expect(made.answer).toMatchObject({
      first_name: 'Jane',
      booking: { start: slot, type: 'Call', status: 'scheduled' },
      can_book: false,
      manage_path: `/booking/${token}`,
      emailed: true,
    });
    expect(await scheduled()).toEqual([{ host_id: firm.owner.id, booked_network: '198.51.100.0/24', visitor_time_zone: 'Europe/Paris' }]);
    expect(await firm.openTimes(firm.day(2))).not.toContain(slot);
  });

  it('holds the time for the visitor’s emailed confirmation when the owners require it: pending, nothing booked', async () => {
    await firm.saveSettings({ require_email_confirmation: true });
    const token = await firm.newLink();
    const slot = (await firm.openTimes(firm.day(2)))[4]!;
    const made = await handleNewBooking(firm.request(), { booking_token: token, start: slot, type: 'Zoom' });
    expect(made.held).toBe(true);
    expect(made.answer).toMatchObject({ status: 'pending', booking: null, pending: { start: slot, type: 'Zoom' }, emailed: true });
    expect(made.answer).toHaveProperty('expires_at', (made.answer as { pending: { expires_at: string } }).pending.expires_at);
    expect(await scheduled()).toEqual([]);
    expect(await firm.openTimes(firm.day(2))).toContain(slot);
  });

  it('refuses a second call through one link, a time nobody is free, a chosen person, and any booking while booking is closed', async () => {
    const token = await firm.newLink();
    const slots = await firm.openTimes(firm.day(2));
    await handleNewBooking(firm.request(), { booking_token: token, start: slots[0]!, type: 'Call' });
    expect(await refusalOf(handleNewBooking(firm.request(), { booking_token: token, start: slots[1]!, type: 'Call' }))).toMatchObject({
      status: 409,
      message: ALREADY_BOOKED,
    });

    const other = await firm.newLink({ email: 'other@example.com' });
    const taken = await refusalOf(handleNewBooking(firm.request(), { booking_token: other, start: slots[0]!, type: 'Call' }));
    expect(taken).toMatchObject({ status: 409, message: SLOT_TAKEN });
    expect(taken.slots).toEqual(slots.slice(1));

    const chosen = await refusalOf(
      handleNewBooking(firm.request(), { booking_token: other, start: slots[1]!, type: 'Call', host_id: firm.owner.id }),
    );
    expect(chosen).toMatchObject({ status: 400, fields: { host_id: 'Leave it to us: any available' } });

    await firm.saveSettings({ enabled: false });
    expect(await refusalOf(handleNewBooking(firm.request(), { booking_token: other, start: slots[1]!, type: 'Call' }))).toMatchObject({
      status: 409,
      message: BOOKING_CLOSED,
      slots: [],
    });
    expect(await scheduled()).toHaveLength(1);
  });
});
