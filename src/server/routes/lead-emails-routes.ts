import * as z from 'zod';
import { leadIdParamSchema } from '#shared/schemas/lead';
import { leadEmailParamsSchema, leadEmailRequestSchema, leadEmailSchema } from '#shared/schemas/lead-workspace';
import { createAdminRoute } from '../auth/admin-route.ts';
import { sendLeadMessage, sendLeadMessageAgain } from '../conversations/send-message.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const sendRoute = createAdminRoute({
  method: 'post',
  path: '/api/leads/{id}/emails',
  tags: ['leads'],
  summary:
    'Email the lead: from MAIL_FROM under the writer’s name, replies to MAIL_REPLY_TO with the lead’s token; queued in the outbox (not sent, with why, while email is off)',
  request: { params: leadIdParamSchema, body: { required: true, ...jsonContent(leadEmailRequestSchema, 'The message') } },
  responses: {
    201: jsonContent(leadEmailSchema, 'The message, queued'),
    ...errorResponses({
      400: 'Invalid input, or `in_reply_to` names no message on this lead’s timeline',
      404: 'No such lead',
      409: 'The lead is marked Do not email',
      429: 'Too many emails this hour',
    }),
  },
});

const retryRoute = createAdminRoute({
  method: 'post',
  path: '/api/leads/{id}/emails/{emailId}/retry',
  tags: ['leads'],
  summary: 'Send a message written to the lead again, once it failed or was not sent (another day of retries)',
  request: { params: leadEmailParamsSchema },
  responses: {
    200: jsonContent(z.object({ id: z.uuid() }), 'Queued again'),
    ...errorResponses({
      400: 'Invalid id',
      404: 'No such message to this lead',
      422: 'The message has not failed, or email is off',
      429: 'Too many emails this hour',
    }),
  },
});

/** Email to a lead from their page (conversations/send-message.ts). */
export const leadEmailRoutes = createRouter()
  .openapi(sendRoute, async (c) => {
    const { config, outbox } = c.get('deps');
    const user = c.get('user');
    const writer = { id: user.id, name: user.display_name };
    const sent = await sendLeadMessage(c.get('db'), config, writer, c.req.valid('param').id, c.req.valid('json'));
    outbox.nudge();
    return c.json(sent, 201);
  })
  .openapi(retryRoute, async (c) => {
    const { id, emailId } = c.req.valid('param');
    const { config, outbox } = c.get('deps');
    await sendLeadMessageAgain(c.get('db'), config, c.get('user').id, id, emailId);
    outbox.nudge();
    return c.json({ id: emailId }, 200);
  });
