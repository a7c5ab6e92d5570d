import { leadIdParamSchema } from '#shared/schemas/lead';
import { leadEmailRequestSchema, leadEmailSchema } from '#shared/schemas/lead-workspace';
import { createAdminRoute } from '../auth/admin-route.ts';
import { queueMailOf } from '../db/queries/emails.ts';
import { queueLeadMessage } from '../db/queries/lead-messages.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

/** Why a message to a lead marked Do not email is refused. */
export const DO_NOT_EMAIL_REFUSAL = 'This lead is marked Do not email. Clear it on their page first if they asked to hear from you again.';

const sendRoute = createAdminRoute({
  method: 'post',
  path: '/api/leads/{id}/emails',
  tags: ['leads'],
  summary:
    'Email the lead: from MAIL_FROM under the writer’s name, replies to MAIL_REPLY_TO with the lead’s token; queued in the outbox (not sent, with why, while email is off)',
  request: { params: leadIdParamSchema, body: { required: true, ...jsonContent(leadEmailRequestSchema, 'The message') } },
  responses: {
    201: jsonContent(leadEmailSchema, 'The message, queued'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such lead', 409: 'The lead is marked Do not email' }),
  },
});

export const leadEmailRoutes = createRouter().openapi(sendRoute, async (c) => {
  const { config, outbox } = c.get('deps');
  const user = c.get('user');
  const sent = await queueLeadMessage(
    c.get('db'),
    c.req.valid('param').id,
    { id: user.id, name: user.display_name },
    c.req.valid('json'),
    queueMailOf(config.mail),
    config.mail.replyTo,
  );
  if (sent === 'not_found') throw new AppError('not_found', 'Lead not found.');
  if (sent === 'do_not_email') throw new AppError('conflict', DO_NOT_EMAIL_REFUSAL);
  outbox.nudge();
  return c.json(sent, 201);
});
