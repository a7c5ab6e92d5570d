import { describe, expect, it } from 'vitest';
import { refusalOf } from '../test/refusal.ts';
import { useCalendarPeople } from '../test/calendar-person.ts';
import { useTestDatabase } from '../test/database.ts';
import { connectCalendar } from './connect-calendar.ts';
import { ownConnection } from './own-connection.ts';

const database = useTestDatabase();
const people = useCalendarPeople(database);

describe('ownConnection', () => {
  it('answers the person’s own calendar, never its link, and 404 to anyone else', async () => {
    people.calendars.set('/private-5ecre7.ics', { ics: people.busyIn(2) });
    const { id } = await connectCalendar(people.access(), people.person, { kind: 'ics', url: people.calendars.url('/private-5ecre7.ics') });
    const mine = await ownConnection(database.db, people.person, id);
    expect(mine).toMatchObject({ id, kind: 'ics', busy_count: 1 });
    expect(JSON.stringify(mine)).not.toContain('5ecre7');
    expect(await refusalOf(ownConnection(database.db, people.other, id))).toMatchObject({ status: 404, message: 'Calendar not found.' });
  });
});
