import { createRoute } from '@hono/zod-openapi';
import { errorResponseSchema } from '#shared/schemas/error';
import { publicLeadRequestSchema, publicLeadResponseSchema } from '#shared/schemas/lead';
import { createLead } from '../db/queries/leads.ts';
import { hitRateLimit } from '../db/queries/rate-limits.ts';
import { AppError } from '../http/errors.ts';
import { createRouter, requireDb } from '../http/router.ts';

const HOUR = 3600;
const json = (schema: typeof errorResponseSchema) => ({ 'application/json': { schema } });

const submitLeadRoute = createRoute({
  method: 'post',
  path: '/api/public/leads',
  tags: ['public'],
  summary: 'Submit the public lead form (books a free call)',
  description:
    'Open to anyone. Stores nothing twice for one submission_id. Honeypot and too-fast submissions ' +
    'are answered as success and not stored. Limited to LEAD_RATE_LIMIT submissions per client IP per hour.',
  security: [],
  request: { body: { required: true, content: { 'application/json': { schema: publicLeadRequestSchema } } } },
  responses: {
    201: { description: 'Received', content: { 'application/json': { schema: publicLeadResponseSchema } } },
    400: { description: 'Invalid fields', content: json(errorResponseSchema) },
    429: { description: 'Too many submissions from this IP', content: json(errorResponseSchema) },
  },
});

function retryMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `Too many requests. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

export const publicLeadRoutes = createRouter().openapi(submitLeadRoute, async (c) => {
  const { config, logger } = c.get('deps');
  const db = requireDb(c);
  const body = c.req.valid('json');
  const received = c.json({ status: 'received' as const }, 201);

  if (config.leadRateLimit > 0) {
    const limit = await hitRateLimit(db, `lead:${c.get('clientIp')}`, config.leadRateLimit, HOUR);
    if (!limit.allowed) {
      throw new AppError('rate_limited', retryMessage(limit.retryAfterSeconds), undefined, {
        'Retry-After': String(limit.retryAfterSeconds),
      });
    }
  }

  // Bots: answered as success so they learn nothing, never stored, counted in the logs.
  const honeypot = (body.website ?? '').length > 0;
  const tooFast = config.leadMinFillSeconds > 0 && (body.fill_ms ?? 0) < config.leadMinFillSeconds * 1000;
  if (honeypot || tooFast) {
    logger.info(
      { event: 'lead_spam_dropped', reason: honeypot ? 'honeypot' : 'too_fast', requestId: c.get('requestId') },
      'dropped a public lead submission as spam',
    );
    return received;
  }

  const { website: _website, fill_ms: _fill, ...lead } = body;
  const result = await createLead(db, lead);
  logger.info(
    { event: result.created ? 'lead_created' : 'lead_duplicate', leadId: result.id, requestId: c.get('requestId') },
    result.created ? 'stored a public lead' : 'ignored a repeated lead submission',
  );
  return received;
});
