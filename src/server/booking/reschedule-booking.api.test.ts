import { beforeEach, describe, expect, it } from 'vitest';
import { openFirm } from '../test/booking-firm.ts';
import { refusalOf } from '../test/refusal.ts';
import { useTestDatabase } from '../test/database.ts';
import { handleNewBooking } from './new-booking/new-booking.ts';
import { SLOT_TAKEN } from './open-slot.ts';
import { rescheduleBooking } from './reschedule-booking.ts';

const database = useTestDatabase();
let firm: Awaited<ReturnType<typeof openFirm>>;
beforeEach(async () => {
  firm = await openFirm(database);
});

const bookAt = async (start: string, email = `v${crypto.randomUUID().slice(0, 8)}@example.com`) => {
  const token = await firm.newLink({ email });
  await handleNewBooking(firm.request(), { booking_token: token, start, type: 'Call' });
  return token;
};

describe('rescheduleBooking', () => {
  it('moves the call to another open time, freeing the old one; the call does not block its own new time', async () => {
    const slots = await firm.openTimes(firm.day(2));
    const token = await bookAt(slots[2]!);
    // Half an hour later overlaps nothing but the call itself (one host).
    const moved = await rescheduleBooking(firm.request(), token, { start: slots[3]!, type: 'Zoom' });
    expect(moved).toMatchObject({ booking: { start: slots[3], type: 'Zoom', status: 'scheduled' }, can_change: true });
    expect(typeof moved.emailed).toBe('boolean');
    const open = await firm.openTimes(firm.day(2));
    expect(open).toContain(slots[2]);
    expect(open).not.toContain(slots[3]);
  });

  it('refuses a time someone else has (409 with the day’s open times) and a link with no call to change (422)', async () => {
    const slots = await firm.openTimes(firm.day(2));
    const token = await bookAt(slots[2]!);
    await bookAt(slots[6]!);
    const taken = await refusalOf(rescheduleBooking(firm.request(), token, { start: slots[6]!, type: 'Call' }));
    expect(taken).toMatchObject({ status: 409, message: SLOT_TAKEN });
    expect(taken.slots).not.toContain(slots[6]);
    expect(taken.slots).toContain(slots[2]);
    expect(await refusalOf(rescheduleBooking(firm.request(), await firm.newLink(), { start: slots[8]!, type: 'Call' }))).toMatchObject({
      status: 422,
      message: 'There is no booked call to change.',
    });
  });
});
