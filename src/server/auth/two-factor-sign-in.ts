import { CODE_INVALID } from '#shared/schemas/two-factor';
import type { Db } from '../db/client.ts';
import { recordAudit } from '../db/queries/audit-log-queries.ts';
import { undoRateLimitHits } from '../db/queries/rate-limits-queries.ts';
import { claimTotpStep, findChallenge, useRecoveryCode } from '../db/queries/two-factor-queries.ts';
import { AppError } from '../lib/app-error.ts';
import { rateLimitKey } from '../lib/client-address.ts';
import { countFailure } from './count-failure.ts';
import type { SignInRequest } from './password-sign-in.ts';
import { TOO_MANY_CODES_FOR_IP, TOO_MANY_CODES_FOR_PAIR, twoFactorKeys } from './sign-in-limits.ts';
import { slowStrangers } from './strangers.ts';
import { hashRecoveryCode, verifyTotp } from './totp.ts';

export const SIGN_IN_EXPIRED = 'Your sign-in expired. Enter your email and password again.';

/** The half-done sign-in (password right, code to come) that the challenge cookie's `token` names; 401 when gone or expired. */
export async function openChallenge(db: Db, token: string | undefined) {
  const challenge = token ? await findChallenge(db, token) : undefined;
  if (!token || !challenge?.secret) throw new AppError('unauthorized', SIGN_IN_EXPIRED);
  return { ...challenge, token, secret: challenge.secret };
}

type Challenge = Awaited<ReturnType<typeof openChallenge>>;

/**
 * The second step of a sign-in with two-factor (POST /api/auth/login/two-factor): a code from
 * the app (its step claimed atomically, so one code sent twice at once signs in once) or a
 * recovery code (used up, audited). The password's rule (docs/security.md, "Two-factor and
 * current-password limits"): wrong codes are limited per (account, address) and per address,
 * never per account, so a stranger who knows the password cannot lock its owner out; past the
 * account's bound they are slowed. 401 for a wrong code (audited); a right one takes its count back.
 */
export async function checkSecondFactor(
  request: SignInRequest,
  challenge: Challenge,
  given: { code?: string | undefined; recovery_code?: string | undefined },
): Promise<void> {
  const { db, source } = request;
  const { code, recovery_code } = given;
  if (!code && !recovery_code)
    throw new AppError('validation_failed', 'Enter the 6-digit code from your app, or a recovery code.', { code: 'Code is required' });
  const keys = twoFactorKeys(challenge.user_id, rateLimitKey(source.ip));
  const hit = await countFailure(db, keys, { ip: TOO_MANY_CODES_FOR_IP, pair: TOO_MANY_CODES_FOR_PAIR });
  await slowStrangers(request, challenge.user_id, hit.counts.get(keys.account) ?? 0, 'two_factor_slowed');

  const actor = request.actor({ id: challenge.user_id, email: challenge.email });
  let ok: boolean;
  if (code) {
    const step = await verifyTotp(challenge.secret, code, challenge.last_step);
    ok = step !== undefined && (await claimTotpStep(db, challenge.user_id, step));
  } else {
    ok = await useRecoveryCode(db, challenge.user_id, hashRecoveryCode(recovery_code!));
    if (ok) await recordAudit(db, actor, { action: 'recovery_code_used', targetType: 'account', targetId: challenge.user_id });
  }
  if (!ok) {
    await recordAudit(db, actor, {
      action: 'two_factor_failed',
      targetType: 'account',
      targetId: challenge.user_id,
      details: { with: code ? 'code' : 'recovery_code' },
    });
    throw new AppError('unauthorized', CODE_INVALID);
  }
  await undoRateLimitHits(db, [keys.ip, keys.account], [keys.pair], hit.windowStart);
}
