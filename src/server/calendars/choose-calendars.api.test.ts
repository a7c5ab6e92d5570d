import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CALENDARS_PER_PERSON } from '#shared/schemas/calendars';
import { getConnection, insertConnection } from '../db/queries/calendar-connections-queries.ts';
import { calendarSecretContext } from '../db/sealed-secrets.ts';
import { execute } from '../db/sql.ts';
import { refusalOf } from '../test/refusal.ts';
import { useCalendarPeople } from '../test/calendar-person.ts';
import { useTestDatabase } from '../test/database.ts';
import { readNewChoice, saveChoice } from './choose-calendars.ts';

const database = useTestDatabase();
const people = useCalendarPeople(database);
// Port 1 of the loopback is not on the allow list: a read of this account fails at once, in words.
const DAV = 'http://127.0.0.1:1/dav/dana/';
const WORK = `${DAV}work/`;
const HOLIDAYS = `${DAV}holidays/`;

/** A CalDAV account of `userId` as connecting it stores one (every calendar busy), not being read. */
async function account(userId = people.person) {
  const { vault } = people.access();
  if (!vault.available) throw new Error(vault.reason);
  const id = randomUUID();
  const secret = vault.seal(JSON.stringify({ url: DAV, username: 'dana', password: 'app-password' }), calendarSecretContext(id));
  const calendars = [
    { url: WORK, name: 'Work', can_write: true },
    { url: HOLIDAYS, name: 'Holidays', can_write: false },
  ];
  expect(
    await insertConnection(
      database.db,
      { id, userId, kind: 'caldav', label: 'dana on 127.0.0.1', secret, calendars },
      CALENDARS_PER_PERSON,
    ),
  ).toBe(true);
  await execute(database.db, sql`update calendar_connections set claimed_until = null, last_attempt_at = null`);
  return id;
}

describe('saveChoice', () => {
  it('saves which calendars count as busy and which receives booked calls, saying whether the busy ones changed', async () => {
    const id = await account();
    const same = await saveChoice(people.access(), people.person, id, { busy_calendars: [WORK, HOLIDAYS, WORK], write_calendar: WORK });
    expect(same).toEqual({ id, userId: people.person, busy: 2, writes: true, busyChanged: false });
    const fewer = await saveChoice(people.access(), people.person, id, { busy_calendars: [WORK], write_calendar: null });
    expect(fewer).toMatchObject({ busy: 1, writes: false, busyChanged: true });
    expect(await getConnection(database.db, people.person, id)).toMatchObject({ busy_calendars: [WORK], write_calendar: null });
  });

  it('refuses calendars not of the account, a write calendar it may not write to, and anyone else’s account, saving nothing', async () => {
    const id = await account();
    const access = people.access();
    expect(
      await refusalOf(saveChoice(access, people.person, id, { busy_calendars: [`${DAV}other/`], write_calendar: null })),
    ).toMatchObject({
      status: 400,
      message: 'Choose busy calendars from this account’s list.',
    });
    expect(await refusalOf(saveChoice(access, people.person, id, { busy_calendars: [], write_calendar: HOLIDAYS }))).toMatchObject({
      status: 400,
      message: 'Booked calls can go only to one of this account’s calendars that you can write to.',
    });
    expect(await refusalOf(saveChoice(access, people.other, id, { busy_calendars: [], write_calendar: null }))).toMatchObject({
      status: 404,
      message: 'CalDAV account not found.',
    });
    expect(await getConnection(database.db, people.person, id)).toMatchObject({ busy_calendars: [WORK, HOLIDAYS], write_calendar: null });
  });
});

describe('readNewChoice', () => {
  it('reads the account at once when the busy calendars changed, and leaves it alone otherwise', async () => {
    const id = await account();
    const access = people.access();
    await readNewChoice(access, await saveChoice(access, people.person, id, { busy_calendars: [WORK, HOLIDAYS], write_calendar: null }));
    expect((await getConnection(database.db, people.person, id))!.last_attempt_at).toBeNull();
    await readNewChoice(access, await saveChoice(access, people.person, id, { busy_calendars: [WORK], write_calendar: null }));
    const read = await getConnection(database.db, people.person, id);
    expect(read!.last_attempt_at).not.toBeNull();
    expect(read!.last_error).toMatch(/127\.0\.0\.1/);
  });
});
