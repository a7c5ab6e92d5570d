import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { zonedParts } from '#shared/zoned-time';
import { appointmentMailOf } from '../db/queries/appointments-queries.ts';
import { getBookingSettings } from '../db/queries/bookings-queries.ts';
import { readHosts } from '../db/queries/hosts-queries.ts';
import { hashToken } from '../lib/secret-token.ts';
import { FIRM_TZ, openFirm } from '../test/booking-firm.ts';
import { refusalOf } from '../test/refusal.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { bookOrUndo } from './book-slot.ts';
import { ALREADY_BOOKED } from './booking-link.ts';
import { hostsOf, requireOpenSlot, SLOT_TAKEN } from './open-slot.ts';

/*
 * The rules bookOrUndo leaves to SQL, because only the database settles a race between
 * processes: a link books one call, and one person is never booked twice over a time (the
 * booking statement, bookSlot in db/queries/bookings-queries.ts, and the appointments' no-overlap
 * constraint). These tests hand it times checked against what was read before another booking
 * went in, as two requests at one moment would.
 */

const database = useTestDatabase();
let firm: Awaited<ReturnType<typeof openFirm>>;
let undone: number;
beforeEach(async () => {
  firm = await openFirm(database);
  undone = 0;
});

/** A booking of `start` through `token` as checked now (the people free then, read now). */
async function checked(token: string, start: string) {
  const db = database.db;
  const settings = await getBookingSettings(db);
  const date = zonedParts(Date.parse(start), FIRM_TZ).date;
  const stored = await readHosts(db, FIRM_TZ, date, date);
  const team = hostsOf(settings, stored);
  const { free, ...at } = requireOpenSlot(settings, FIRM_TZ, start, team);
  return {
    hash: hashToken(token),
    token,
    ...at,
    type: 'Call',
    start,
    settings,
    timeZone: FIRM_TZ,
    team,
    hosts: free.map((h) => h.id),
    network: null,
    visitorTimeZone: null,
  };
}
const book = (booking: Awaited<ReturnType<typeof checked>>) =>
  bookOrUndo(database.db, appointmentMailOf(firm.t.config), booking, async () => {
    undone++;
  });
const scheduled = () => rowsOf<{ host_id: string }>(database.db, sql`select host_id from appointments where status = 'scheduled'`);

describe('bookOrUndo: the booking statement settles races', () => {
  it('books the time with the first free person', async () => {
    const slot = (await firm.openTimes(firm.day(2)))[0]!;
    const made = await book(await checked(await firm.newLink(), slot));
    expect(made).toMatchObject({ host_id: firm.owner.id, emailed: false });
    expect(await scheduled()).toEqual([{ host_id: firm.owner.id }]);
    expect(undone).toBe(0);
  });

  it('a time booked after it was checked: 409 with that day’s open times read afresh, and the attempt undone', async () => {
    const slots = await firm.openTimes(firm.day(2));
    const first = await checked(await firm.newLink(), slots[1]!);
    const second = await checked(await firm.newLink(), slots[1]!);
    await book(first);
    const lost = await refusalOf(book(second));
    expect(lost).toMatchObject({ status: 409, message: SLOT_TAKEN });
    expect(lost.slots).toEqual(slots.filter((s) => s !== slots[1]));
    expect(undone).toBe(1);
    expect(await scheduled()).toHaveLength(1);
  });

  it('two links racing for one time: one call, the other told the time was taken', async () => {
    const slot = (await firm.openTimes(firm.day(3)))[2]!;
    const bookings = [await checked(await firm.newLink(), slot), await checked(await firm.newLink(), slot)];
    const answers = await Promise.allSettled(bookings.map(book));
    expect(answers.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = answers.find((a) => a.status === 'rejected') as PromiseRejectedResult;
    expect(await refusalOf(Promise.reject(lost.reason))).toMatchObject({ status: 409, message: SLOT_TAKEN });
    expect(await scheduled()).toHaveLength(1);
  });

  it('a link that booked meanwhile books no second call: 409, and the attempt undone', async () => {
    const slots = await firm.openTimes(firm.day(2));
    const token = await firm.newLink();
    const first = await checked(token, slots[3]!);
    const second = await checked(token, slots[5]!);
    await book(first);
    expect(await refusalOf(book(second))).toMatchObject({ status: 409, message: ALREADY_BOOKED });
    expect(undone).toBe(1);
    expect(await scheduled()).toHaveLength(1);
  });
});
