import { describe, expect, it } from 'vitest';
import { claimConnection, getConnection } from '../db/queries/calendar-connections-queries.ts';
import { refusalOf } from '../test/refusal.ts';
import { useCalendarPeople } from '../test/calendar-person.ts';
import { useTestDatabase } from '../test/database.ts';
import { connectCalendar } from './connect-calendar.ts';
import { syncNow } from './sync-now.ts';

const database = useTestDatabase();
const people = useCalendarPeople(database);

describe('syncNow', () => {
  it('reads the calendar at once; a failure is stored on it, not refused', async () => {
    people.calendars.set('/team.ics', { ics: people.busyIn(2) });
    const { id } = await connectCalendar(people.access(), people.person, { kind: 'ics', url: people.calendars.url('/team.ics') });
    people.calendars.set('/team.ics', { ics: people.busyIn(2, 4) });
    await syncNow(people.access(), people.person, id);
    expect(await getConnection(database.db, people.person, id)).toMatchObject({ busy_count: 2, last_error: null, stale: false });
    people.calendars.set('/team.ics', { status: 500, body: 'oops' });
    await syncNow(people.access(), people.person, id);
    const failed = await getConnection(database.db, people.person, id);
    expect(failed).toMatchObject({ busy_count: 2, stale: true });
    expect(failed!.last_error).toContain('HTTP 500');
  });

  it('answers 404 for someone else’s calendar and 409 while a sync holds it', async () => {
    people.calendars.set('/held.ics', { ics: people.busyIn(2) });
    const { id } = await connectCalendar(people.access(), people.person, { kind: 'ics', url: people.calendars.url('/held.ics') });
    expect(await refusalOf(syncNow(people.access(), people.other, id))).toMatchObject({ status: 404, message: 'Calendar not found.' });
    expect(await claimConnection(database.db, people.person, id)).toMatchObject({ id });
    expect(await refusalOf(syncNow(people.access(), people.person, id))).toMatchObject({
      status: 409,
      message: 'This calendar is being synced right now. Try again in a moment.',
    });
  });
});
