import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openFirm } from '../test/booking-firm.ts';
import { refusalOf } from '../test/refusal.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { bookedCallFile } from './booked-call-file.ts';
import { cancelBooking } from './cancel-booking.ts';
import { handleNewBooking } from './new-booking/new-booking.ts';

const database = useTestDatabase();

describe('bookedCallFile', () => {
  it('is the booked call with the invitation’s UID, published; cancelled, it says so; 404 for a link with no call', async () => {
    const firm = await openFirm(database, { MAIL_FROM: 'Desk <desk@firm.example>' });
    const token = await firm.newLink();
    expect(await refusalOf(bookedCallFile(firm.request(), token))).toMatchObject({
      status: 404,
      message: 'There is no call booked through this link.',
    });
    const slot = (await firm.openTimes(firm.day(2)))[0]!;
    await handleNewBooking(firm.request(), { booking_token: token, start: slot, type: 'Call' });
    const [{ id }] = (await rowsOf<{ id: string }>(database.db, sql`select id from appointments`)) as [{ id: string }];
    const ics = await bookedCallFile(firm.request(), token);
    expect(ics).toContain('METHOD:PUBLISH');
    expect(ics).toContain(`UID:${id}@firm.example`);
    expect(ics).not.toContain('STATUS:CANCELLED');
    await cancelBooking(firm.request(), token);
    expect(await bookedCallFile(firm.request(), token)).toContain('STATUS:CANCELLED');
  });
});
