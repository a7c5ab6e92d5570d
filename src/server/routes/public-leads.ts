import { publicLeadRequestSchema, publicLeadResponseSchema } from '#shared/schemas/lead';
import { createLead } from '../db/queries/leads.ts';
import { queueMailOf } from '../db/queries/emails.ts';
import { issueBookingToken, newBookingToken } from '../db/queries/bookings.ts';
import { hitRateLimit } from '../db/queries/rate-limits.ts';
import { tooManyRequests } from '../http/errors.ts';
import { createPublicRoute, errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { rateLimitKey } from '../lib/client-address.ts';

const HOUR = 3600;

const submitLeadRoute = createPublicRoute({
  method: 'post',
  path: '/api/public/leads',
  tags: ['public'],
  summary: 'Submit the public lead form (books a free call)',
  description:
    'Open to anyone. Stores nothing twice for one submission_id. Honeypot and too-fast submissions ' +
    'are answered as success and not stored. The answer holds a booking_token for POST /api/public/bookings. Limited to LEAD_RATE_LIMIT submissions per client IP per hour.',
  request: { body: { required: true, ...jsonContent(publicLeadRequestSchema, 'The filled-in form') } },
  responses: {
    201: jsonContent(publicLeadResponseSchema, 'Received'),
    ...errorResponses({ 400: 'Invalid fields', 429: 'Too many submissions from this IP' }),
  },
});

export const publicLeadRoutes = createRouter().openapi(submitLeadRoute, async (c) => {
  const { config, logger } = c.var.deps;
  const body = c.req.valid('json');
  const link = newBookingToken();
  // Spam gets a token too (it books nothing): bots learn nothing from the answer.
  const received = c.json({ status: 'received' as const, booking_token: link.token }, 201);

  if (config.leadRateLimit > 0) {
    const limit = await hitRateLimit(c.var.db, `lead:${rateLimitKey(c.var.clientIp)}`, config.leadRateLimit, HOUR);
    if (!limit.allowed) throw tooManyRequests(limit.retryAfterSeconds);
  }

  // Bots: answered as success so they learn nothing, never stored, counted in the logs.
  const honeypot = (body.website ?? '').length > 0;
  const tooFast = config.leadMinFillSeconds > 0 && (body.fill_ms ?? 0) < config.leadMinFillSeconds * 1000;
  if (honeypot || tooFast) {
    logger.info(
      { event: 'lead_spam_dropped', reason: honeypot ? 'honeypot' : 'too_fast', requestId: c.var.requestId },
      'dropped a public lead submission as spam',
    );
    return received;
  }

  const { website: _website, fill_ms: _fill, ...lead } = body;
  const result = await createLead(c.var.db, lead, {
    mail: { ...queueMailOf(c.var.deps.config.mail), acknowledge: true },
    bookingTokenHash: link.hash,
  });
  // A retried form stored nothing: its answer still gets a link to the lead it stored before.
  if (!result.created) await issueBookingToken(c.var.db, lead.submission_id, link.hash);
  // Sent after the answer, never inside it: the visitor does not wait for the mail server.
  if (result.created) c.var.deps.outbox.nudge();
  logger.info(
    { event: result.created ? 'lead_created' : 'lead_duplicate', leadId: result.id, requestId: c.var.requestId },
    result.created ? 'stored a public lead' : 'ignored a repeated lead submission',
  );
  return received;
});
