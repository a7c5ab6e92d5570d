import {
  firmStretches,
  memberAvailabilityResponseSchema,
  memberAvailabilitySchema,
  type MemberAvailability,
} from '#shared/schemas/availability';
import { memberParamsSchema } from '#shared/schemas/team';
import { addDays, zonedParts } from '#shared/zoned-time';
import type { Context } from 'hono';
import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { createAdminRoute, createOwnerRoute } from '../auth/admin-route.ts';
import { federalHolidaysBetween } from '../booking/holidays.ts';
import { getMemberAvailability, saveMemberAvailability } from '../db/queries/availability-queries.ts';
import { getBookingSettings } from '../db/queries/bookings-queries.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const body = { body: { required: true, ...jsonContent(memberAvailabilitySchema, 'Working hours') } };
const answer = jsonContent(memberAvailabilityResponseSchema, 'Working hours');

const getOwnRoute = createAdminRoute({
  method: 'get',
  path: '/api/account/availability',
  tags: ['account'],
  summary: 'Your working hours: whether you take website calls, your weekly hours, days off and federal holidays',
  responses: { 200: answer },
});

const putOwnRoute = createAdminRoute({
  method: 'put',
  path: '/api/account/availability',
  tags: ['account'],
  summary: 'Save your working hours',
  request: body,
  responses: { 200: answer, ...errorResponses({ 400: 'Invalid input' }) },
});

const getMemberRoute = createOwnerRoute({
  method: 'get',
  path: '/api/team/members/{id}/availability',
  tags: ['team'],
  summary: "A team member's working hours",
  request: { params: memberParamsSchema },
  responses: { 200: answer, ...errorResponses({ 400: 'Invalid input', 404: 'No such account' }) },
});

const putMemberRoute = createOwnerRoute({
  method: 'put',
  path: '/api/team/members/{id}/availability',
  tags: ['team'],
  summary: "Save a team member's working hours",
  request: { params: memberParamsSchema, ...body },
  responses: { 200: answer, ...errorResponses({ 400: 'Invalid input', 404: 'No such account' }) },
});

const noSuchAccount = () => new AppError('not_found', 'Account not found.');

/** The answer: the person's hours, what "the firm's hours" are now, and the holidays of the next twelve months. */
async function respond(c: Context<AppEnv>, userId: string) {
  const db = c.get('db');
  const value = await getMemberAvailability(db, userId);
  if (!value) throw noSuchAccount();
  const timeZone = c.get('deps').config.businessTimeZone;
  const today = zonedParts(Date.now(), timeZone).date;
  return {
    ...value,
    meeting_link: value.meeting_link ?? null,
    user_id: userId,
    firm_hours: firmStretches(await getBookingSettings(db)),
    holidays: federalHolidaysBetween(today, addDays(today, 365)),
    time_zone: timeZone,
  };
}

async function save(c: Context<AppEnv>, userId: string, value: MemberAvailability) {
  const before = await getMemberAvailability(c.get('db'), userId);
  if (!before || !(await saveMemberAvailability(c.get('db'), userId, value))) throw noSuchAccount();
  const changes = (Object.keys(value) as (keyof MemberAvailability)[]).filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(value[k]),
  );
  if (changes.length > 0)
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'working_hours_changed',
      targetType: 'account',
      targetId: userId,
      details: { changes },
    });
}

export const availabilityRoutes = createRouter()
  .openapi(getOwnRoute, async (c) => c.json(await respond(c, c.get('user').id), 200))
  .openapi(putOwnRoute, async (c) => {
    await save(c, c.get('user').id, c.req.valid('json'));
    return c.json(await respond(c, c.get('user').id), 200);
  })
  .openapi(getMemberRoute, async (c) => c.json(await respond(c, c.req.valid('param').id), 200))
  .openapi(putMemberRoute, async (c) => {
    const { id } = c.req.valid('param');
    await save(c, id, c.req.valid('json'));
    return c.json(await respond(c, id), 200);
  });
