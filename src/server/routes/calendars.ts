import { randomUUID } from 'node:crypto';
import {
  CALENDARS_PER_PERSON,
  calendarChoiceSchema,
  calendarConnectionCreateSchema,
  calendarConnectionListSchema,
  calendarConnectionParamsSchema,
  calendarConnectionSchema,
  outsideBusyQuerySchema,
  outsideBusySchema,
  type OutsideBlock,
} from '#shared/schemas/calendars';
import type { Context } from 'hono';
import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { createAdminRoute } from '../auth/admin-route.ts';
import { addDays, clockText, zonedInstant, zonedParts } from '#shared/zoned-time';
import { blockedRanges, type Busy } from '../booking/availability.ts';
import { calendarAccess } from '../calendars/calendar-access.ts';
import { CalendarReadError, keptWindow, readIcsLink, syncClaimed } from '../calendars/sync.ts';
import { calendarSecretContext } from '../db/sealed-secrets.ts';
import { isActiveMember } from '../db/queries/availability.ts';
import { getBookingSettings } from '../db/queries/bookings.ts';
import {
  claimConnection,
  deleteConnection,
  getCalendarChoice,
  getConnection,
  insertConnection,
  listConnections,
  readOutsideBusy,
  saveCalendarChoice,
  storeSyncSuccess,
} from '../db/queries/calendar-connections.ts';
import { requeueConnection } from '../db/queries/calendar-writes.ts';
import { calDavLabel, findCalendars } from '../calendars/caldav-account.ts';
import { calendarServiceOf } from '../calendars/calendar-read.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const connectionAnswer = jsonContent(calendarConnectionSchema, 'A connected calendar');
const params = { params: calendarConnectionParamsSchema };

const listRoute = createAdminRoute({
  method: 'get',
  path: '/api/account/calendars',
  tags: ['account'],
  summary: 'Your connected outside calendars, each with its last sync or error (never a link or password)',
  responses: { 200: jsonContent(calendarConnectionListSchema, 'Your calendars') },
});

const connectRoute = createAdminRoute({
  method: 'post',
  path: '/api/account/calendars',
  tags: ['account'],
  summary:
    'Connect a calendar (an iCal link, or a CalDAV account with an app password): its busy times count against your open times (read once now, then every 5 minutes)',
  request: { body: { required: true, ...jsonContent(calendarConnectionCreateSchema, 'The calendar to connect') } },
  responses: {
    201: connectionAnswer,
    ...errorResponses({
      400: 'Invalid input',
      409: 'Too many calendars',
      422: 'The calendar could not be read, or the account reached',
      503: 'No credentials key',
    }),
  },
});

const chooseRoute = createAdminRoute({
  method: 'patch',
  path: '/api/account/calendars/{id}',
  tags: ['account'],
  summary: 'A CalDAV account: which of its calendars count as busy, and which receives booked calls (null: none)',
  request: { ...params, body: { required: true, ...jsonContent(calendarChoiceSchema, 'The choice') } },
  responses: { 200: connectionAnswer, ...errorResponses({ 400: 'Invalid input', 404: 'No such CalDAV account' }) },
});

const removeRoute = createAdminRoute({
  method: 'delete',
  path: '/api/account/calendars/{id}',
  tags: ['account'],
  summary: 'Remove a calendar and the busy times read from it',
  request: params,
  responses: { 204: { description: 'Removed' }, ...errorResponses({ 400: 'Invalid input', 404: 'No such calendar' }) },
});

const syncRoute = createAdminRoute({
  method: 'post',
  path: '/api/account/calendars/{id}/sync',
  tags: ['account'],
  summary: 'Read a calendar now; answers it with its new state (an error is in `last_error`)',
  request: params,
  responses: { 200: connectionAnswer, ...errorResponses({ 400: 'Invalid input', 404: 'No such calendar', 409: 'Being synced' }) },
});

const busyRoute = createAdminRoute({
  method: 'get',
  path: '/api/calendar/busy',
  tags: ['appointments'],
  summary: "A team member's busy times from their outside calendars over a range (times only, no details)",
  request: { query: outsideBusyQuerySchema },
  responses: { 200: jsonContent(outsideBusySchema, 'Busy times'), ...errorResponses({ 400: 'Invalid input', 404: 'No such person' }) },
});

const noSuchCalendar = () => new AppError('not_found', 'Calendar not found.');
/** The longest range the busy times are asked for at once: a month view with its edges (and a clock change). */
const MAX_BUSY_RANGE_MS = 45 * 86_400_000 + 3_600_000;

/** `read`'s answer, or a 422 "`what`: why" when the calendar or account said no. */
async function orUnprocessable<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof CalendarReadError) throw new AppError('unprocessable', `${what}: ${error.message}`);
    throw error;
  }
}

function accessOf(c: Context<AppEnv>) {
  const { config, vault, logger } = c.get('deps');
  return calendarAccess(c.get('db'), config, vault(), logger);
}

export const calendarRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const { vault } = accessOf(c);
    return c.json(
      {
        connections: await listConnections(c.get('db'), c.get('user').id),
        credentials_ready: vault.available,
        credentials_reason: vault.available ? null : vault.reason,
      },
      200,
    );
  })
  .openapi(connectRoute, async (c) => {
    const body = c.req.valid('json');
    const access = accessOf(c);
    const { vault } = access;
    if (!vault.available) throw new AppError('service_unavailable', vault.reason);
    const db = c.get('db');
    const user = c.get('user');
    const settings = await getBookingSettings(db);
    const id = randomUUID();
    const tooMany = () => new AppError('conflict', `You can connect at most ${CALENDARS_PER_PERSON} calendars. Remove one first.`);
    let label: string;
    if (body.kind === 'ics') {
      // Read once before saving, so a wrong link is said now rather than at the next sync.
      const read = await orUnprocessable('That calendar could not be read', () =>
        readIcsLink(access, body.url, keptWindow(Date.now(), settings.horizon_days)),
      );
      label = calendarServiceOf(body.url);
      const secret = vault.seal(JSON.stringify({ url: body.url }), calendarSecretContext(id));
      if (!(await insertConnection(db, { id, userId: user.id, kind: 'ics', label, secret }, CALENDARS_PER_PERSON))) throw tooMany();
      await storeSyncSuccess(db, { id, user_id: user.id, busy_digest: null }, read);
    } else {
      // Signed in and listed before saving: a wrong password or address is said now.
      const account = { url: body.url, username: body.username, password: body.password };
      const calendars = await orUnprocessable('That account could not be reached', () => findCalendars(access, account));
      label = calDavLabel(account);
      const secret = vault.seal(JSON.stringify(account), calendarSecretContext(id));
      if (!(await insertConnection(db, { id, userId: user.id, kind: 'caldav', label, secret, calendars }, CALENDARS_PER_PERSON)))
        throw tooMany();
      // Every calendar counts as busy until the person chooses: read them now (the claim is the insert's).
      await syncClaimed(access, {
        id,
        user_id: user.id,
        kind: 'caldav',
        label,
        secret,
        busy_digest: null,
        busy_calendars: calendars.map((cal) => cal.url),
      });
    }
    await recordAudit(db, actorOf(c), { action: 'calendar_connected', targetType: 'account', targetId: user.id, details: { label } });
    const made = await getConnection(db, user.id, id);
    if (!made) throw noSuchCalendar(); // removed meanwhile by another tab
    return c.json(made, 201);
  })
  .openapi(chooseRoute, async (c) => {
    const { id } = c.req.valid('param');
    const choice = c.req.valid('json');
    const db = c.get('db');
    const user = c.get('user');
    const before = await getCalendarChoice(db, user.id, id);
    if (!before) throw new AppError('not_found', 'CalDAV account not found.');
    const known = new Map(before.calendars.map((cal) => [cal.url, cal]));
    const busy = [...new Set(choice.busy_calendars)];
    if (busy.some((url) => !known.has(url))) throw new AppError('validation_failed', 'Choose busy calendars from this account’s list.');
    if (choice.write_calendar !== null && !known.get(choice.write_calendar)?.can_write)
      throw new AppError('validation_failed', 'Booked calls can go only to one of this account’s calendars that you can write to.');
    if (!(await saveCalendarChoice(db, user.id, id, { busy_calendars: busy, write_calendar: choice.write_calendar })))
      throw new AppError('not_found', 'CalDAV account not found.');
    if (choice.write_calendar !== before.write_calendar) {
      const today = zonedParts(Date.now(), c.get('deps').config.businessTimeZone).date;
      await requeueConnection(db, id, today);
    }
    await recordAudit(db, actorOf(c), {
      action: 'calendar_choice_changed',
      targetType: 'account',
      targetId: user.id,
      details: { busy: busy.length, writes: choice.write_calendar !== null },
    });
    // Another choice of busy calendars is read now (unless a sync holds it: then at the next).
    const sameBusy = busy.length === before.busy_calendars.length && busy.every((url) => before.busy_calendars.includes(url));
    if (!sameBusy) {
      const claimed = await claimConnection(db, user.id, id);
      if (claimed && claimed !== 'busy') await syncClaimed(accessOf(c), claimed);
    }
    const now = await getConnection(db, user.id, id);
    if (!now) throw noSuchCalendar();
    return c.json(now, 200);
  })
  .openapi(removeRoute, async (c) => {
    const { id } = c.req.valid('param');
    const user = c.get('user');
    const before = await getConnection(c.get('db'), user.id, id);
    if (!before || !(await deleteConnection(c.get('db'), user.id, id))) throw noSuchCalendar();
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'calendar_disconnected',
      targetType: 'account',
      targetId: user.id,
      details: { label: before.label },
    });
    return c.body(null, 204);
  })
  .openapi(syncRoute, async (c) => {
    const { id } = c.req.valid('param');
    const user = c.get('user');
    const claimed = await claimConnection(c.get('db'), user.id, id);
    if (!claimed) throw noSuchCalendar();
    if (claimed === 'busy') throw new AppError('conflict', 'This calendar is being synced right now. Try again in a moment.');
    await syncClaimed(accessOf(c), claimed);
    const now = await getConnection(c.get('db'), user.id, id);
    if (!now) throw noSuchCalendar();
    return c.json(now, 200);
  })
  .openapi(busyRoute, async (c) => {
    const { person, from, to } = c.req.valid('query');
    const timeZone = c.get('deps').config.businessTimeZone;
    const start = zonedInstant(from, 0, timeZone);
    const end = zonedInstant(addDays(to, 1), 0, timeZone);
    if (start === undefined || end === undefined || !(end > start) || end - start > MAX_BUSY_RANGE_MS)
      throw new AppError('validation_failed', 'Ask for at most 45 days, the last on or after the first.');
    if (!(await isActiveMember(c.get('db'), person))) throw new AppError('not_found', 'Person not found.');
    const busy = blockedRanges(await readOutsideBusy(c.get('db'), person, start, end), 0);
    return c.json({ busy: busy.flatMap((b) => piecesByDay(b, timeZone, start, end)) }, 200);
  });

/** A busy time within [from, to) cut at the business time zone's midnights, as each date's clock times. */
export function piecesByDay(b: Busy, timeZone: string, from: number, to: number): OutsideBlock[] {
  const pieces: OutsideBlock[] = [];
  const first = Math.max(b.start, from);
  const last = Math.min(b.end, to);
  for (let date = zonedParts(first, timeZone).date; ; date = addDays(date, 1)) {
    const dayStart = zonedInstant(date, 0, timeZone) ?? first;
    const dayEnd = zonedInstant(addDays(date, 1), 0, timeZone) ?? last;
    if (dayStart >= last) break;
    const s = Math.max(first, dayStart);
    const e = Math.min(last, dayEnd);
    if (e > s)
      pieces.push({
        date,
        start: clockText(zonedParts(s, timeZone).minutes),
        end: e >= dayEnd ? '24:00' : clockText(zonedParts(e, timeZone).minutes),
      });
  }
  return pieces;
}
