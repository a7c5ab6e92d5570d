import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { execute } from '../../db/sql.ts';
import { openFirm } from '../../test/booking-firm.ts';
import { refusalOf } from '../../test/refusal.ts';
import { rowsOf, useTestDatabase } from '../../test/database.ts';
import { confirmHeldBooking } from './confirm.ts';
import { HOLD_EXPIRED, HOLD_UNKNOWN } from './hold.ts';
import { handleNewBooking } from './new-booking.ts';

const database = useTestDatabase();
const MAIL_ON = { SMTP_URL: 'smtp://127.0.0.1:9', PUBLIC_URL: 'http://127.0.0.1:3000' };
let firm: Awaited<ReturnType<typeof openFirm>>;
beforeEach(async () => {
  firm = await openFirm(database, MAIL_ON);
  await firm.saveSettings({ require_email_confirmation: true });
});

/** Holds `start` for a new link and answers the link and the code from its email. */
async function held(start: string, email = `v${crypto.randomUUID().slice(0, 8)}@example.com`) {
  const token = await firm.newLink({ email });
  expect((await handleNewBooking(firm.request(), { booking_token: token, start, type: 'Call' })).held).toBe(true);
  const [mail] = await rowsOf<{ link: string }>(
    database.db,
    sql`select data->>'link' as link from emails where kind = 'booking-confirmation' and data->>'link' like ${`/booking/${token}/%`}`,
  );
  return { token, code: mail!.link.split('/')[4]! };
}
const scheduled = async () =>
  (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from appointments where status = 'scheduled'`))[0]!.n;

describe('confirmHeldBooking', () => {
  it('books the held time; a second click answers the same and books nothing', async () => {
    const slot = (await firm.openTimes(firm.day(2)))[3]!;
    const { token, code } = await held(slot);
    const first = await confirmHeldBooking(firm.request(), token, code);
    expect(first.booked).toBe(true);
    expect(first.answer).toMatchObject({ booking: { start: slot, status: 'scheduled' }, pending: null, emailed: true });
    expect(await rowsOf(database.db, sql`select confirmed_at is not null as confirmed from booking_holds`)).toEqual([{ confirmed: true }]);
    const again = await confirmHeldBooking(firm.request(), token, code);
    expect(again.booked).toBe(false);
    expect(again.answer.booking).toEqual(first.answer.booking);
    expect(await scheduled()).toBe(1);
  });

  it('refuses an unknown code (404) and a hold past its 30 minutes (422), booking nothing', async () => {
    const slot = (await firm.openTimes(firm.day(2)))[5]!;
    const { token, code } = await held(slot);
    expect(await refusalOf(confirmHeldBooking(firm.request(), token, 'A'.repeat(43)))).toMatchObject({
      status: 404,
      message: HOLD_UNKNOWN,
    });
    await execute(database.db, sql`update booking_holds set expires_at = now() - interval '1 minute'`);
    expect(await refusalOf(confirmHeldBooking(firm.request(), token, code))).toMatchObject({ status: 422, message: HOLD_EXPIRED });
    expect(await scheduled()).toBe(0);
  });

  it('of two holds of one time, the first confirmed gets it; the other is told the time was taken, with the day’s open times', async () => {
    const slots = await firm.openTimes(firm.day(3));
    const a = await held(slots[4]!);
    const b = await held(slots[4]!);
    expect((await confirmHeldBooking(firm.request(), a.token, a.code)).booked).toBe(true);
    const lost = await refusalOf(confirmHeldBooking(firm.request(), b.token, b.code));
    expect(lost).toMatchObject({ status: 409 });
    expect(lost.slots).toEqual(slots.filter((s) => s !== slots[4]));
  });
});
