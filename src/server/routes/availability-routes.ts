import { memberAvailabilityResponseSchema, memberAvailabilitySchema, type MemberAvailability } from '#shared/schemas/availability';
import { memberParamsSchema } from '#shared/schemas/team';
import type { Context } from 'hono';
import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { createAdminRoute, createOwnerRoute } from '../auth/admin-route.ts';
import { saveWorkingHours, workingHoursOf } from '../booking/member-working-hours.ts';
import type { AppEnv } from '../http/context.ts';
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

/** The answer: the person's working hours, on the business clock of now. */
const respond = (c: Context<AppEnv>, userId: string) =>
  workingHoursOf(c.get('db'), userId, c.get('deps').config.businessTimeZone, Date.now());

/** Saves them, and records which fields changed. */
async function save(c: Context<AppEnv>, userId: string, value: MemberAvailability) {
  const changes = await saveWorkingHours(c.get('db'), userId, value);
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
