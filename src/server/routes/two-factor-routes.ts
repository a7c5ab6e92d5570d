import {
  CODE_INVALID,
  confirmTwoFactorSchema,
  passwordConfirmSchema,
  recoveryCodesSchema,
  securitySettingsSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '#shared/schemas/two-factor';
import { actorOf } from '../audit/audit-log.ts';
import { createAdminRoute, createOwnerRoute } from '../auth/admin-route.ts';
import { checkCurrentPassword } from '../auth/current-password.ts';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, otpauthUri, qrCodeDataUrl, verifyTotp } from '../auth/totp.ts';
import {
  disableTwoFactor,
  enableTwoFactor,
  regenerateRecoveryCodes,
  requiresTwoFactor,
  setPendingSecret,
  setRequireTwoFactor,
  twoFactorState,
} from '../db/queries/two-factor-queries.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { getWebsiteContent } from '../db/queries/website-queries.ts';

/** Setting up two-factor on one's own account, and the owners' rule that everyone must. */

const statusRoute = createAdminRoute({
  method: 'get',
  path: '/api/account/two-factor',
  tags: ['account'],
  summary:
    'Whether two-factor is on for you, how many recovery codes are left, whether the team requires it, and whether your calendar feed waits for it',
  responses: { 200: jsonContent(twoFactorStatusSchema, 'Status') },
});

const startRoute = createAdminRoute({
  method: 'post',
  path: '/api/account/two-factor/setup',
  tags: ['account'],
  summary: 'Start setting up two-factor: a new secret, as a QR code and as text (on only once a code confirms it)',
  responses: {
    200: jsonContent(twoFactorSetupSchema, 'The secret to add to an authenticator app'),
    ...errorResponses({ 409: 'Two-factor is on already' }),
  },
});

const confirmRoute = createAdminRoute({
  method: 'post',
  path: '/api/account/two-factor/confirm',
  tags: ['account'],
  summary: 'Turn two-factor on with a code from the app; answers the 10 recovery codes, shown this once',
  request: { body: { required: true, ...jsonContent(confirmTwoFactorSchema, 'A code from the app') } },
  responses: {
    200: jsonContent(recoveryCodesSchema, 'On, with recovery codes'),
    ...errorResponses({ 400: 'Wrong code, or no set-up started', 409: 'On already' }),
  },
});

const disableRoute = createAdminRoute({
  method: 'post',
  path: '/api/account/two-factor/disable',
  tags: ['account'],
  summary: 'Turn two-factor off (current password required); recovery codes and remembered devices go too',
  request: { body: { required: true, ...jsonContent(passwordConfirmSchema, 'The current password') } },
  responses: {
    200: jsonContent(twoFactorStatusSchema, 'Off'),
    ...errorResponses({ 400: 'Wrong password', 409: 'The team requires two-factor', 429: 'Too many wrong passwords' }),
  },
});

const regenerateRoute = createAdminRoute({
  method: 'post',
  path: '/api/account/two-factor/recovery-codes',
  tags: ['account'],
  summary: 'New recovery codes (current password required); the old ones stop working',
  request: { body: { required: true, ...jsonContent(passwordConfirmSchema, 'The current password') } },
  responses: {
    200: jsonContent(recoveryCodesSchema, 'The new codes, shown this once'),
    ...errorResponses({ 400: 'Wrong password, or two-factor is off', 429: 'Too many wrong passwords' }),
  },
});

const getSecurityRoute = createOwnerRoute({
  method: 'get',
  path: '/api/settings/security',
  tags: ['settings'],
  summary: 'The team\u2019s security rule: whether everyone must use two-factor',
  responses: { 200: jsonContent(securitySettingsSchema, 'The rule') },
});

const putSecurityRoute = createOwnerRoute({
  method: 'put',
  path: '/api/settings/security',
  tags: ['settings'],
  summary: 'Require two-factor of everyone (those without it set it up at their next page), or not',
  request: { body: { required: true, ...jsonContent(securitySettingsSchema, 'The rule') } },
  responses: {
    200: jsonContent(securitySettingsSchema, 'Saved'),
    ...errorResponses({ 400: 'Invalid input', 409: 'Turn on two-factor for yourself first' }),
  },
});

const gone = () => new AppError('unauthorized', 'Please sign in.');

export const twoFactorRoutes = createRouter()
  .openapi(statusRoute, async (c) => {
    const state = await twoFactorState(c.get('db'), c.get('user').id);
    if (!state) throw gone();
    const required = await requiresTwoFactor(c.get('db'));
    const calendar_feed_paused = required && !state.enabled && state.has_calendar_feed;
    return c.json({ enabled: state.enabled, recovery_codes_left: state.recovery_codes_left, required, calendar_feed_paused }, 200);
  })
  .openapi(startRoute, async (c) => {
    const state = await twoFactorState(c.get('db'), c.get('user').id);
    if (!state) throw gone();
    if (state.enabled) throw new AppError('conflict', 'Two-factor is on already. Turn it off first to use another app.');
    const secret = newTotpSecret();
    await setPendingSecret(c.get('db'), c.get('user').id, secret);
    // The authenticator app lists the account under the brand the website shows now.
    const issuer = (await getWebsiteContent(c.get('db'), c.get('deps').config.site)).content.site_name;
    const uri = otpauthUri(issuer, c.get('user').email, secret);
    return c.json({ otpauth_uri: uri, secret, qr_code: await qrCodeDataUrl(uri) }, 200);
  })
  .openapi(confirmRoute, async (c) => {
    const db = c.get('db');
    const user = c.get('user');
    const state = await twoFactorState(db, user.id);
    if (!state) throw gone();
    if (state.enabled) throw new AppError('conflict', 'Two-factor is on already.');
    if (!state.pending) throw new AppError('validation_failed', 'Start the set-up first.', { code: 'Start the set-up first.' });
    const step = await verifyTotp(state.pending, c.req.valid('json').code, null);
    if (step === undefined) throw new AppError('validation_failed', CODE_INVALID, { code: CODE_INVALID });
    const codes = newRecoveryCodes();
    if (!(await enableTwoFactor(db, user.id, state.pending, step, codes.map(hashRecoveryCode), actorOf(c)))) {
      throw new AppError('conflict', 'The set-up was started again elsewhere: scan the new code.');
    }
    return c.json({ recovery_codes: codes }, 200);
  })
  .openapi(disableRoute, async (c) => {
    const db = c.get('db');
    const user = c.get('user');
    await checkCurrentPassword(c, c.req.valid('json').current_password);
    if (await requiresTwoFactor(db)) throw new AppError('conflict', 'Your team requires two-factor: it cannot be turned off.');
    await disableTwoFactor(db, user.id, actorOf(c));
    return c.json({ enabled: false, recovery_codes_left: 0, required: false }, 200);
  })
  .openapi(regenerateRoute, async (c) => {
    const db = c.get('db');
    const user = c.get('user');
    await checkCurrentPassword(c, c.req.valid('json').current_password);
    const state = await twoFactorState(db, user.id);
    if (!state?.enabled) throw new AppError('validation_failed', 'Two-factor is off: there are no recovery codes to replace.');
    const codes = newRecoveryCodes();
    await regenerateRecoveryCodes(db, user.id, codes.map(hashRecoveryCode), actorOf(c));
    return c.json({ recovery_codes: codes }, 200);
  })
  .openapi(getSecurityRoute, async (c) => c.json({ require_two_factor: await requiresTwoFactor(c.get('db')) }, 200))
  .openapi(putSecurityRoute, async (c) => {
    const { require_two_factor } = c.req.valid('json');
    if (require_two_factor && !(await twoFactorState(c.get('db'), c.get('user').id))?.enabled) {
      throw new AppError('conflict', 'Turn on two-factor for your own account first, so you are not locked out.');
    }
    await setRequireTwoFactor(c.get('db'), require_two_factor, actorOf(c));
    return c.json({ require_two_factor }, 200);
  });
