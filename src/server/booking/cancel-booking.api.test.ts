import { beforeEach, describe, expect, it } from 'vitest';
import { openFirm } from '../test/booking-firm.ts';
import { refusalOf } from '../test/refusal.ts';
import { useTestDatabase } from '../test/database.ts';
import { CHANGES_PER_LINK_PER_HOUR } from './booking-link.ts';
import { cancelBooking } from './cancel-booking.ts';
import { handleNewBooking } from './new-booking/new-booking.ts';

const database = useTestDatabase();
let firm: Awaited<ReturnType<typeof openFirm>>;
beforeEach(async () => {
  firm = await openFirm(database);
});

describe('cancelBooking', () => {
  it('cancels the call: the link may book again and the time is open again; a cancelled call cannot be cancelled twice', async () => {
    const slot = (await firm.openTimes(firm.day(2)))[1]!;
    const token = await firm.newLink();
    await handleNewBooking(firm.request(), { booking_token: token, start: slot, type: 'Call' });
    const cancelled = await cancelBooking(firm.request(), token);
    expect(cancelled).toMatchObject({ booking: { start: slot, status: 'cancelled' }, can_book: true, can_change: false, calendar: null });
    expect(typeof cancelled.emailed).toBe('boolean');
    expect(await firm.openTimes(firm.day(2))).toContain(slot);
    expect(await refusalOf(cancelBooking(firm.request(), token))).toMatchObject({ status: 422 });
  });

  it('counts each change through the link: past the hourly limit, 429', async () => {
    const slots = await firm.openTimes(firm.day(2));
    const token = await firm.newLink();
    for (let i = 0; i < CHANGES_PER_LINK_PER_HOUR; i++) {
      await handleNewBooking(firm.request(), { booking_token: token, start: slots[i]!, type: 'Call' });
      await cancelBooking(firm.request(), token);
    }
    await handleNewBooking(firm.request(), { booking_token: token, start: slots[12]!, type: 'Call' });
    expect(await refusalOf(cancelBooking(firm.request(), token))).toMatchObject({ status: 429 });
  });
});
