import * as z from 'zod';
import { leadIdParamSchema } from '#shared/schemas/lead';
import { leadEmailParamsSchema, leadEmailRequestSchema, leadEmailSchema } from '#shared/schemas/lead-workspace';
import { createAdminRoute } from '../auth/admin-route.ts';
import { newMessageBookingLink, queueMailOf } from '../db/queries/emails.ts';
import { mailSite } from '../mail/context.ts';
import { queueLeadMessage } from '../db/queries/lead-messages.ts';
import { hitRateLimit } from '../db/queries/rate-limits.ts';
import { AppError, tooManyRequests } from '../http/errors.ts';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { sendEmailAgain } from './send-again.ts';

/** Why a message to a lead marked Do not email is refused. */
export const DO_NOT_EMAIL_REFUSAL = 'This lead is marked Do not email. Clear it on their page first if they asked to hear from you again.';

/**
 * A person's messages to leads per hour (LEAD_EMAIL_PER_HOUR), counted in the database for
 * every process: a stolen session cannot make the firm mail strangers without bound.
 */
async function countMessage(c: Context<AppEnv>) {
  const perHour = c.get('deps').config.mail.leadMessagesPerHour;
  if (perHour === 0) return;
  const hit = await hitRateLimit(c.get('db'), `lead-email:${c.get('user').id}`, perHour, 3600);
  if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds, 'emails');
}

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

export const leadEmailRoutes = createRouter()
  .openapi(sendRoute, async (c) => {
    const { config, outbox } = c.get('deps');
    const user = c.get('user');
    await countMessage(c);
    const sent = await queueLeadMessage(
      c.get('db'),
      c.req.valid('param').id,
      { id: user.id, name: user.display_name, firmPhone: (await mailSite(c.get('db'), config)).phone },
      c.req.valid('json'),
      queueMailOf(config.mail),
      config.mail.replyTo,
    );
    if (sent === 'not_found') throw new AppError('not_found', 'Lead not found.');
    if (sent === 'do_not_email') throw new AppError('conflict', DO_NOT_EMAIL_REFUSAL);
    if (sent === 'no_such_message')
      throw new AppError('validation_failed', 'The message you are answering is not on this lead’s timeline.', {
        in_reply_to: 'Not a message on this lead’s timeline',
      });
    outbox.nudge();
    return c.json(sent, 201);
  })
  .openapi(retryRoute, async (c) => {
    const { id, emailId } = c.req.valid('param');
    await sendEmailAgain(c, emailId, {
      of: { leadId: id, kind: 'lead-message' },
      relink: newMessageBookingLink(),
      beforeQueue: () => countMessage(c),
    });
    return c.json({ id: emailId }, 200);
  });
