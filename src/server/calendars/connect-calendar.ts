import { randomUUID } from 'node:crypto';
import { CALENDARS_PER_PERSON, type CalendarConnectionCreate } from '#shared/schemas/calendars';
import { getBookingSettings } from '../db/queries/bookings-queries.ts';
import { insertConnection, storeSyncSuccess } from '../db/queries/calendar-connections-queries.ts';
import { calendarSecretContext } from '../db/sealed-secrets.ts';
import { AppError } from '../lib/app-error.ts';
import { calDavLabel, findCalendars } from './caldav-account.ts';
import type { CalendarAccess } from './calendar-access.ts';
import { calendarServiceOf, CalendarReadError } from './calendar-read.ts';
import { keptWindow, readIcsLink, syncClaimed } from './sync.ts';

/**
 * A person connects an outside calendar (POST /api/account/calendars): an iCal link, read once
 * before it is saved, or a CalDAV account, signed in to and listed before it is saved, so a wrong
 * link or password is said now rather than at the next sync (422, in the calendar's words). Its
 * link or sign-in is stored sealed with the credentials key (503 without one); a person keeps at
 * most CALENDARS_PER_PERSON (409). Every calendar of a new account counts as busy until the
 * person chooses, and is read at once.
 */
export async function connectCalendar(
  access: CalendarAccess,
  userId: string,
  body: CalendarConnectionCreate,
): Promise<{ id: string; label: string }> {
  const { db, vault } = access;
  if (!vault.available) throw new AppError('service_unavailable', vault.reason);
  const settings = await getBookingSettings(db);
  const id = randomUUID();
  const tooMany = () => new AppError('conflict', `You can connect at most ${CALENDARS_PER_PERSON} calendars. Remove one first.`);
  if (body.kind === 'ics') {
    const read = await orUnprocessable('That calendar could not be read', () =>
      readIcsLink(access, body.url, keptWindow(Date.now(), settings.horizon_days)),
    );
    const label = calendarServiceOf(body.url);
    const secret = vault.seal(JSON.stringify({ url: body.url }), calendarSecretContext(id));
    if (!(await insertConnection(db, { id, userId, kind: 'ics', label, secret }, CALENDARS_PER_PERSON))) throw tooMany();
    await storeSyncSuccess(db, { id, user_id: userId, busy_digest: null }, read);
    return { id, label };
  }
  const account = { url: body.url, username: body.username, password: body.password };
  const calendars = await orUnprocessable('That account could not be reached', () => findCalendars(access, account));
  const label = calDavLabel(account);
  const secret = vault.seal(JSON.stringify(account), calendarSecretContext(id));
  if (!(await insertConnection(db, { id, userId, kind: 'caldav', label, secret, calendars }, CALENDARS_PER_PERSON))) throw tooMany();
  // The claim is the insert's.
  await syncClaimed(access, {
    id,
    user_id: userId,
    kind: 'caldav',
    label,
    secret,
    busy_digest: null,
    busy_calendars: calendars.map((cal) => cal.url),
  });
  return { id, label };
}

/** `read`'s answer, or a 422 "`what`: why" when the calendar or account said no. */
async function orUnprocessable<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof CalendarReadError) throw new AppError('unprocessable', `${what}: ${error.message}`);
    throw error;
  }
}
