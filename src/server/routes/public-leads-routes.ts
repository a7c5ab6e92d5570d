import {
  FORM_TOKEN_REFUSED_MESSAGE,
  formTokenResponseSchema,
  publicLeadRequestSchema,
  publicLeadResponseSchema,
} from '#shared/schemas/lead';
import { submitPublicLead } from '../db/queries/lead-inquiries-queries.ts';
import { appSecret } from '../db/queries/app-secrets-queries.ts';
import { queueMailOf } from '../db/queries/emails-queries.ts';
import { issueBookingToken } from '../db/queries/bookings-queries.ts';
import { hashToken, mintToken } from '../lib/secret-token.ts';
import { hitRateLimit } from '../db/queries/rate-limits-queries.ts';
import { FORM_TOKEN_MAX_AGE_SECONDS, checkFormToken, signFormToken } from '../lib/form-token.ts';
import { AppError, tooManyRequests } from '../http/errors.ts';
import { createPublicRoute, errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { rateLimitKey } from '../lib/client-address.ts';

const HOUR = 3600;

const formTokenRoute = createPublicRoute({
  method: 'get',
  path: '/api/public/form-token',
  tags: ['public'],
  summary: 'A token for the public lead form',
  description:
    'Open to anyone. The lead form fetches one when first focused and sends it back as form_token: sent sooner than ' +
    'min_age_seconds (LEAD_MIN_FILL_SECONDS) after it was handed out, the form is taken for a bot’s; after max_age_seconds ' +
    '(24 hours) it is refused with 400 and the form fetches a fresh one.',
  responses: { 200: jsonContent(formTokenResponseSchema, 'The token and its age limits') },
});

const submitLeadRoute = createPublicRoute({
  method: 'post',
  path: '/api/public/leads',
  tags: ['public'],
  summary: 'Submit the public lead form (books a free call)',
  description:
    'Open to anyone. Stores nothing twice for one submission_id. Unless LEAD_MIN_FILL_SECONDS is 0, the body must carry a ' +
    'form_token from GET /api/public/form-token: a missing, forged or expired one, or one already sent with another ' +
    'submission_id, is answered 400 (field form_token); a token ' +
    'younger than LEAD_MIN_FILL_SECONDS, or a honeypot (website) filled in or left out, is answered as success and not stored. ' +
    'The answer holds a booking_token for POST /api/public/bookings. Limited to LEAD_RATE_LIMIT submissions per client IP per hour.',
  request: { body: { required: true, ...jsonContent(publicLeadRequestSchema, 'The filled-in form') } },
  responses: {
    201: jsonContent(publicLeadResponseSchema, 'Received'),
    ...errorResponses({
      400: 'Invalid fields, or a missing, forged, expired or already used form_token',
      429: 'Too many submissions from this IP',
    }),
  },
});

export const publicLeadRoutes = createRouter()
  .openapi(formTokenRoute, async (c) => {
    const secret = await appSecret(c.get('db'), 'lead_form_token');
    return c.json(
      {
        form_token: signFormToken(secret, Date.now()),
        min_age_seconds: c.get('deps').config.leadMinFillSeconds,
        max_age_seconds: FORM_TOKEN_MAX_AGE_SECONDS,
      },
      200,
    );
  })
  .openapi(submitLeadRoute, async (c) => {
    const { config, logger } = c.get('deps');
    const body = c.req.valid('json');
    const link = mintToken();
    // Spam gets a token too (it books nothing): bots learn nothing from the answer.
    const received = c.json({ status: 'received' as const, booking_token: link.token }, 201);

    if (config.leadRateLimit > 0) {
      const limit = await hitRateLimit(c.get('db'), `lead:${rateLimitKey(c.get('clientIp'))}`, config.leadRateLimit, HOUR);
      if (!limit.allowed) throw tooManyRequests(limit.retryAfterSeconds);
    }

    // The time trap (docs/security.md, "The lead form's spam controls"): the form's age is
    // read from the token the server signed, never from the browser. Off with 0.
    let tooFast = false;
    let honeypot = (body.website ?? '').length > 0;
    let tokenExpiresAt: number | undefined;
    const refuseToken = (reason: string) => {
      // Said plainly, not swallowed: a person whose page outlived its token must not lose the
      // message; the form fetches a fresh token and sends again.
      logger.info(
        { event: 'lead_form_token_refused', reason, requestId: c.get('requestId') },
        'refused a public lead submission without a valid form token',
      );
      return new AppError('validation_failed', FORM_TOKEN_REFUSED_MESSAGE, { form_token: FORM_TOKEN_REFUSED_MESSAGE });
    };
    if (config.leadMinFillSeconds > 0) {
      const now = Date.now();
      const token = checkFormToken(await appSecret(c.get('db'), 'lead_form_token'), body.form_token, now);
      if (!token.ok) throw refuseToken(token.reason);
      // Its use is kept an hour past its life, so a process whose clock is behind still knows it.
      tokenExpiresAt = now - token.ageMs + (FORM_TOKEN_MAX_AGE_SECONDS + HOUR) * 1000;
      tooFast = token.ageMs < config.leadMinFillSeconds * 1000;
      // Our form always sends the honeypot, empty: leaving it out is a bot's doing too.
      honeypot ||= body.website === undefined;
    }

    // Bots: answered as success so they learn nothing, never stored, counted in the logs.
    if (honeypot || tooFast) {
      logger.info(
        { event: 'lead_spam_dropped', reason: honeypot ? 'honeypot' : 'too_fast', requestId: c.get('requestId') },
        'dropped a public lead submission as spam',
      );
      return received;
    }

    const { website: _website, form_token: _formToken, ...lead } = body;
    const result = await submitPublicLead(c.get('db'), lead, {
      mail: { ...queueMailOf(c.get('deps').config.mail), acknowledge: true },
      bookingTokenHash: link.hash,
      // One token, one submission (its retries included), claimed with the lead itself: a
      // token sent again with another submission_id is refused like an expired one, so a bot
      // cannot reuse one wait for many leads.
      formToken: tokenExpiresAt === undefined ? undefined : { hash: hashToken(body.form_token ?? ''), expiresAtMs: tokenExpiresAt },
    });
    if (result === 'token_reused') throw refuseToken('reused');
    // Committed: the lists and the bells of every process hear of it now (it chose to announce after the commit).
    if (result.created) c.get('deps').hub.announce({ resources: ['leads'], notifications: result.notices });
    // A retried form stored nothing: its answer still gets a link to the lead it stored before.
    if (!result.created) await issueBookingToken(c.get('db'), lead.submission_id, link.hash);
    // Sent after the answer, never inside it: the visitor does not wait for the mail server.
    if (result.created) c.get('deps').outbox.nudge();
    logger.info(
      {
        event: result.repeated ? 'lead_inquiry' : result.created ? 'lead_created' : 'lead_duplicate',
        leadId: result.id,
        requestId: c.get('requestId'),
      },
      result.repeated ? 'added an inquiry to a known lead' : result.created ? 'stored a public lead' : 'ignored a repeated lead submission',
    );
    return received;
  });
