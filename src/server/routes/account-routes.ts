import * as z from 'zod';
import {
  accountChangeSchema,
  passwordChangeSchema,
  accountSessionsSchema,
  changeEmailSchema,
  changePasswordSchema,
  profileRequestSchema,
  profileSchema,
  signatureSchema,
  sessionParamsSchema,
} from '#shared/schemas/account';
import { emailPreferencesSchema, updateEmailPreferencesSchema } from '#shared/schemas/email';
import { actorOf, changedFields, recordAudit } from '../audit/audit-log.ts';
import { createAdminRoute } from '../auth/admin-route.ts';
import { checkCurrentPassword } from '../auth/current-password.ts';
import { endAccountAccess } from '../auth/end-access.ts';
import { hashPassword } from '../auth/password.ts';
import { queueMailOf } from '../db/queries/emails-queries.ts';
import { readSessionToken } from '../auth/session-cookie.ts';
import { changeEmail, changePassword, endSession, listSessions } from '../db/queries/account-queries.ts';
import { hashToken } from '../lib/secret-token.ts';
import { getEmailPreferences, getSignature, setEmailPreferences, setProfile, setSignature } from '../db/queries/users-queries.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const getRoute = createAdminRoute({
  method: 'get',
  path: '/api/account/preferences',
  tags: ['account'],
  summary: "The signed-in admin's email preferences",
  responses: { 200: jsonContent(emailPreferencesSchema, 'Preferences') },
});

const updateRoute = createAdminRoute({
  method: 'patch',
  path: '/api/account/preferences',
  tags: ['account'],
  summary: 'Change the preferences sent (only those)',
  request: { body: { required: true, ...jsonContent(updateEmailPreferencesSchema, 'The preferences to change') } },
  responses: { 200: jsonContent(emailPreferencesSchema, 'Preferences'), ...errorResponses({ 400: 'Invalid input' }) },
});

const profileRoute = createAdminRoute({
  method: 'put',
  path: '/api/account/profile',
  tags: ['account'],
  summary: 'Change your name and phone (a blank phone removes it)',
  request: { body: { required: true, ...jsonContent(profileRequestSchema, 'Your name, and your phone or none') } },
  responses: { 200: jsonContent(profileSchema, 'Your name and phone'), ...errorResponses({ 400: 'Invalid input' }) },
});

const getSignatureRoute = createAdminRoute({
  method: 'get',
  path: '/api/account/signature',
  tags: ['account'],
  summary: 'The signature under the messages you write to leads',
  responses: { 200: jsonContent(signatureSchema, 'Your signature (empty: none)') },
});

const setSignatureRoute = createAdminRoute({
  method: 'put',
  path: '/api/account/signature',
  tags: ['account'],
  summary: 'Change the signature under the messages you write to leads (empty: none)',
  request: { body: { required: true, ...jsonContent(signatureSchema, 'Your signature') } },
  responses: { 200: jsonContent(signatureSchema, 'Your signature'), ...errorResponses({ 400: 'Invalid input' }) },
});

const emailRoute = createAdminRoute({
  method: 'post',
  path: '/api/account/email',
  tags: ['account'],
  summary: 'Change your email (current password required); your other sessions end',
  request: { body: { required: true, ...jsonContent(changeEmailSchema, 'The new email and the current password') } },
  responses: {
    200: jsonContent(accountChangeSchema, 'Changed'),
    ...errorResponses({
      400: 'Invalid input or wrong current password',
      409: 'Another account uses that email',
      429: 'Too many wrong passwords',
    }),
  },
});

const passwordRoute = createAdminRoute({
  method: 'post',
  path: '/api/account/password',
  tags: ['account'],
  summary: 'Change your password (current password required); your other sessions, your calendar feed URL and your remembered devices end',
  request: { body: { required: true, ...jsonContent(changePasswordSchema, 'The current password and the new one, twice') } },
  responses: {
    200: jsonContent(passwordChangeSchema, 'Changed'),
    ...errorResponses({ 400: 'Invalid input or wrong current password', 429: 'Too many wrong passwords' }),
  },
});

const sessionsRoute = createAdminRoute({
  method: 'get',
  path: '/api/account/sessions',
  tags: ['account'],
  summary: 'Where you are signed in: each session with its device, IP and last activity',
  responses: { 200: jsonContent(accountSessionsSchema, 'The sessions') },
});

const endSessionRoute = createAdminRoute({
  method: 'delete',
  path: '/api/account/sessions/{id}',
  tags: ['account'],
  summary: 'Sign out one of your sessions (its live streams end at once)',
  request: { params: sessionParamsSchema },
  responses: {
    200: jsonContent(z.object({ ok: z.literal(true) }), 'Ended'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such session of yours' }),
  },
});

const endOthersRoute = createAdminRoute({
  method: 'post',
  path: '/api/account/sessions/end-others',
  tags: ['account'],
  summary: 'Sign out everywhere else: every session but this one ends',
  responses: { 200: jsonContent(z.object({ ended: z.number().int() }), 'How many ended') },
});

// The session's admin exists (requireUser just read them), unless deleted this very moment.
const gone = () => new AppError('unauthorized', 'Please sign in.');

export const accountRoutes = createRouter()
  .openapi(getRoute, async (c) => {
    const preferences = await getEmailPreferences(c.get('db'), c.get('user').id);
    if (!preferences) throw gone();
    return c.json(preferences, 200);
  })
  .openapi(updateRoute, async (c) => {
    const preferences = await setEmailPreferences(c.get('db'), c.get('user').id, c.req.valid('json'));
    if (!preferences) throw gone();
    return c.json(preferences, 200);
  })
  .openapi(getSignatureRoute, async (c) => {
    const signature = await getSignature(c.get('db'), c.get('user').id);
    if (signature === undefined) throw gone();
    return c.json({ signature }, 200);
  })
  .openapi(setSignatureRoute, async (c) => {
    const { signature } = c.req.valid('json');
    if (!(await setSignature(c.get('db'), c.get('user').id, signature))) throw gone();
    return c.json({ signature }, 200);
  })
  .openapi(profileRoute, async (c) => {
    const changed = await setProfile(c.get('db'), c.get('user').id, c.req.valid('json'));
    if (!changed) throw gone();
    const changes = changedFields(changed.before, changed.after, ['display_name', 'phone']);
    if (Object.keys(changes).length > 0) {
      await recordAudit(c.get('db'), actorOf(c), {
        action: 'profile_changed',
        targetType: 'account',
        targetId: c.get('user').id,
        details: { changes },
      });
    }
    return c.json(changed.after, 200);
  })
  .openapi(emailRoute, async (c) => {
    const { email, current_password } = c.req.valid('json');
    await checkCurrentPassword(c, current_password);
    if (!(await changeEmail(c.get('db'), c.get('user').id, email, actorOf(c))))
      throw new AppError('conflict', 'Another account uses that email.');
    const ended = await endAccountAccess(c, c.get('db'), c.get('user').id, { keepCurrent: true });
    return c.json({ email, other_sessions_ended: ended }, 200);
  })
  .openapi(passwordRoute, async (c) => {
    const { current_password, password } = c.req.valid('json');
    await checkCurrentPassword(c, current_password);
    // Like a reset by email: the other sessions, the calendar feed URL and the remembered devices end with the old password.
    const current = readSessionToken(c);
    const { config, hub, outbox } = c.get('deps');
    const { ended, keys } = await changePassword(
      c.get('db'),
      c.get('user').id,
      await hashPassword(password),
      actorOf(c),
      current ? hashToken(current) : undefined,
      queueMailOf(config.mail),
    );
    for (const key of ended) hub.endSession(key);
    outbox.nudge();
    return c.json({ email: c.get('user').email, other_sessions_ended: ended.length, api_keys: keys }, 200);
  })
  .openapi(sessionsRoute, async (c) => {
    const token = readSessionToken(c);
    return c.json({ sessions: await listSessions(c.get('db'), c.get('user').id, token ? hashToken(token) : undefined) }, 200);
  })
  .openapi(endSessionRoute, async (c) => {
    const key = await endSession(c.get('db'), c.get('user').id, c.req.valid('param').id, actorOf(c));
    if (!key) throw new AppError('not_found', 'No such session.');
    c.get('deps').hub.endSession(key);
    return c.json({ ok: true as const }, 200);
  })
  .openapi(endOthersRoute, async (c) => {
    const ended = await endAccountAccess(c, c.get('db'), c.get('user').id, { keepCurrent: true });
    if (ended > 0)
      await recordAudit(c.get('db'), actorOf(c), {
        action: 'session_ended',
        targetType: 'account',
        targetId: c.get('user').id,
        details: { others: ended },
      });
    return c.json({ ended }, 200);
  });
