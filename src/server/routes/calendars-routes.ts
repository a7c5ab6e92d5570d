import {
  calendarChoiceSchema,
  calendarConnectionCreateSchema,
  calendarConnectionListSchema,
  calendarConnectionParamsSchema,
  calendarConnectionSchema,
  outsideBusyQuerySchema,
  outsideBusySchema,
} from '#shared/schemas/calendars';
import type { Context } from 'hono';
import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { createAdminRoute } from '../auth/admin-route.ts';
import { outsideBusyByDay } from '../calendars/busy-by-day.ts';
import { calendarAccess } from '../calendars/calendar-access.ts';
import { readNewChoice, saveChoice } from '../calendars/choose-calendars.ts';
import { connectCalendar } from '../calendars/connect-calendar.ts';
import { noSuchCalendar, ownConnection } from '../calendars/own-connection.ts';
import { syncNow } from '../calendars/sync-now.ts';
import { deleteConnection, getConnection, listConnections } from '../db/queries/calendar-connections-queries.ts';
import type { AppEnv } from '../http/context.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

/** People's outside calendars: connect, choose, sync and remove their own; a member's busy times (the rules are in calendars/). */

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
    const user = c.get('user');
    const { id, label } = await connectCalendar(accessOf(c), user.id, c.req.valid('json'));
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'calendar_connected',
      targetType: 'account',
      targetId: user.id,
      details: { label },
    });
    return c.json(await ownConnection(c.get('db'), user.id, id), 201);
  })
  .openapi(chooseRoute, async (c) => {
    const { id } = c.req.valid('param');
    const user = c.get('user');
    const access = accessOf(c);
    const saved = await saveChoice(access, user.id, id, c.req.valid('json'));
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'calendar_choice_changed',
      targetType: 'account',
      targetId: user.id,
      details: { busy: saved.busy, writes: saved.writes },
    });
    await readNewChoice(access, saved);
    return c.json(await ownConnection(c.get('db'), user.id, id), 200);
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
    await syncNow(accessOf(c), user.id, id);
    return c.json(await ownConnection(c.get('db'), user.id, id), 200);
  })
  .openapi(busyRoute, async (c) => {
    const { person, from, to } = c.req.valid('query');
    return c.json({ busy: await outsideBusyByDay(c.get('db'), c.get('deps').config.businessTimeZone, person, from, to) }, 200);
  });
