import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CALENDARS_PER_PERSON } from '#shared/schemas/calendars';
import { getConnection } from '../db/queries/calendar-connections-queries.ts';
import { refusalOf } from '../test/refusal.ts';
import { useCalendarPeople } from '../test/calendar-person.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { connectCalendar } from './connect-calendar.ts';

const database = useTestDatabase();
const people = useCalendarPeople(database);

describe('connectCalendar', () => {
  it('reads an iCal link before saving it, and keeps the link sealed with what it read', async () => {
    people.calendars.set('/private-5ecre7/basic.ics', { ics: people.busyIn(2) });
    const made = await connectCalendar(people.access(), people.person, {
      kind: 'ics',
      url: people.calendars.url('/private-5ecre7/basic.ics'),
    });
    expect(made.label).toBe('127.0.0.1');
    const connection = await getConnection(database.db, people.person, made.id);
    expect(connection).toMatchObject({ kind: 'ics', label: '127.0.0.1', last_error: null, stale: false, busy_count: 1 });
    expect(connection!.last_synced_at).not.toBeNull();
    const [stored] = await rowsOf<{ secret: string }>(database.db, sql`select secret from calendar_connections`);
    expect(stored!.secret).not.toContain('5ecre7');
  });

  it('refuses, storing nothing, a link that is not a calendar (422, in its words) or one that points where it may not', async () => {
    people.calendars.set('/page.html', { status: 200, body: '<html>Hello</html>' });
    const page = await refusalOf(connectCalendar(people.access(), people.person, { kind: 'ics', url: people.calendars.url('/page.html') }));
    expect(page).toMatchObject({ status: 422, message: expect.stringMatching(/^That calendar could not be read: /) });
    const elsewhere = await refusalOf(connectCalendar(people.access(), people.person, { kind: 'ics', url: 'http://127.0.0.1:1/cal.ics' }));
    expect(elsewhere).toMatchObject({ status: 422, message: expect.stringMatching(/127\.0\.0\.1/) });
    const account = { kind: 'caldav' as const, url: 'http://127.0.0.1:1/dav/', username: 'dana', password: 'app-password' };
    expect(await refusalOf(connectCalendar(people.access(), people.person, account))).toMatchObject({
      status: 422,
      message: expect.stringMatching(/^That account could not be reached: /),
    });
    expect(await rowsOf(database.db, sql`select id from calendar_connections`)).toEqual([]);
  });

  it('refuses without a credentials key (503), and past the calendars a person may keep (409)', async () => {
    people.calendars.set('/a.ics', { ics: people.busyIn(3) });
    const url = people.calendars.url('/a.ics');
    const closed = { ...people.access(), vault: { available: false as const, reason: 'No credentials key.' } };
    expect(await refusalOf(connectCalendar(closed, people.person, { kind: 'ics', url }))).toEqual({
      status: 503,
      message: 'No credentials key.',
      fields: undefined,
      slots: undefined,
    });
    for (let i = 0; i < CALENDARS_PER_PERSON; i++) await connectCalendar(people.access(), people.person, { kind: 'ics', url });
    expect(await refusalOf(connectCalendar(people.access(), people.person, { kind: 'ics', url }))).toMatchObject({
      status: 409,
      message: `You can connect at most ${CALENDARS_PER_PERSON} calendars. Remove one first.`,
    });
    // Someone else's count is their own.
    await connectCalendar(people.access(), people.other, { kind: 'ics', url });
  });
});
