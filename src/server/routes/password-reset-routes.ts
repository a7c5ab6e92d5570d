import * as z from 'zod';
import {
  PASSWORD_RESET_SENT,
  passwordResetConfirmSchema,
  passwordResetDoneSchema,
  passwordResetLookupSchema,
  passwordResetRequestSchema,
  RESET_LINK_NOT_VALID,
} from '#shared/schemas/account';
import { linkTokenSchema } from '#shared/schemas/team';
import { actorOf } from '../audit/audit-log.ts';
import { hashPassword } from '../auth/password.ts';
import { limitResetRequests } from '../auth/password-reset-limits.ts';
import { completePasswordReset, findPasswordReset, requestPasswordReset } from '../db/queries/account-queries.ts';
import { queueMailOf } from '../db/queries/emails-queries.ts';
import { hashToken, newSecretToken } from '../lib/secret-token.ts';
import { rateLimitKey } from '../lib/client-address.ts';
import { AppError } from '../http/errors.ts';
import { createPublicRoute, errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

/** "Forgot your password?": a link by email, valid 30 minutes, used once. */

const requestRoute = createPublicRoute({
  method: 'post',
  path: '/api/auth/password-reset',
  tags: ['auth'],
  summary: 'Email a link to choose a new password; the answer is the same whether or not an account has that email',
  request: { body: { required: true, ...jsonContent(passwordResetRequestSchema, 'The account email') } },
  responses: {
    200: jsonContent(z.object({ message: z.string() }), 'The same answer for every email'),
    ...errorResponses({ 400: 'Invalid input', 429: 'Too many requests from this network' }),
  },
});

const lookupRoute = createPublicRoute({
  method: 'get',
  path: '/api/auth/password-reset/{token}',
  tags: ['auth'],
  summary: 'The account a reset link is for, while it can be used',
  request: { params: z.object({ token: linkTokenSchema }) },
  responses: {
    200: jsonContent(passwordResetLookupSchema, 'The account'),
    ...errorResponses({ 400: 'Invalid input', 404: 'Used, expired or unknown' }),
  },
});

const confirmRoute = createPublicRoute({
  method: 'post',
  path: '/api/auth/password-reset/confirm',
  tags: ['auth'],
  summary: 'Choose the new password: every session, calendar feed and remembered device of the account ends',
  request: { body: { required: true, ...jsonContent(passwordResetConfirmSchema, 'The token and the new password, twice') } },
  responses: {
    200: jsonContent(passwordResetDoneSchema, 'Changed'),
    ...errorResponses({ 400: 'Invalid input', 404: 'Used, expired or unknown' }),
  },
});

export const passwordResetRoutes = createRouter()
  .openapi(requestRoute, async (c) => {
    const db = c.get('db');
    const { config, outbox } = c.get('deps');
    const { email } = c.req.valid('json');
    await limitResetRequests(db, email, rateLimitKey(c.get('clientIp')));
    const token = newSecretToken();
    const outcome = await requestPasswordReset(
      db,
      email,
      { hash: hashToken(token), link: `${config.publicUrl}/reset-password/${token}` },
      actorOf(c, undefined),
      queueMailOf(config.mail),
    );
    if (outcome === 'sent') outbox.nudge();
    // The answer is the same whatever happened; only the log tells an account at its hourly limit.
    c.get('deps').logger.info(
      { event: 'password_reset_requested', requestId: c.get('requestId'), ...(outcome === 'account_limit' ? { limited: 'account' } : {}) },
      'password reset asked for',
    );
    return c.json({ message: PASSWORD_RESET_SENT }, 200);
  })
  .openapi(lookupRoute, async (c) => {
    const found = await findPasswordReset(c.get('db'), hashToken(c.req.valid('param').token));
    if (!found) throw new AppError('not_found', RESET_LINK_NOT_VALID);
    return c.json(found, 200);
  })
  .openapi(confirmRoute, async (c) => {
    const { token, password } = c.req.valid('json');
    const tokenHash = hashToken(token);
    const found = await findPasswordReset(c.get('db'), tokenHash);
    if (!found) throw new AppError('not_found', RESET_LINK_NOT_VALID);
    const { config, hub, outbox } = c.get('deps');
    const changed = await completePasswordReset(
      c.get('db'),
      tokenHash,
      await hashPassword(password),
      actorOf(c, undefined),
      queueMailOf(config.mail),
    );
    if (!changed) throw new AppError('not_found', RESET_LINK_NOT_VALID);
    for (const key of changed.ended) hub.endSession(key);
    outbox.nudge();
    return c.json({ email: found.email, active_api_keys: changed.keys.length }, 200);
  });
