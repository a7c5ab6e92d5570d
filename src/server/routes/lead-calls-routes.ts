import { leadIdParamSchema } from '#shared/schemas/lead';
import { logCallRequestSchema, loggedCallSchema } from '#shared/schemas/lead-workspace';
import { createAdminRoute } from '../auth/admin-route.ts';
import { logCall } from '../db/queries/lead-calls-queries.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const logCallRoute = createAdminRoute({
  method: 'post',
  path: '/api/leads/{id}/calls',
  tags: ['leads'],
  summary: 'Log a call with the lead (connected, left voicemail, no answer, wrong number): on its timeline',
  request: { params: leadIdParamSchema, body: { required: true, ...jsonContent(logCallRequestSchema, 'How the call went') } },
  responses: {
    201: jsonContent(loggedCallSchema, 'Logged'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such lead' }),
  },
});

/** Log a call: the lead page's record of a conversation on the phone. */
export const leadCallRoutes = createRouter().openapi(logCallRoute, async (c) => {
  const call = await logCall(c.get('db'), c.req.valid('param').id, c.get('user').id, c.req.valid('json'));
  if (!call) throw new AppError('not_found', 'Lead not found.');
  return c.json(call, 201);
});
