import type { Context } from 'hono';
import { CURRENT_PASSWORD_WRONG } from '#shared/schemas/account';
import { passwordHashOf } from '../db/queries/account-queries.ts';
import { hitRateLimitsUnlessOver, undoRateLimitHits } from '../db/queries/rate-limits-queries.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError, tooManyRequests } from '../http/errors.ts';
import { verifyPassword } from './password.ts';
import { SIGN_IN_WINDOW_SECONDS } from './sign-in-limits.ts';

/**
 * The one check of the signed-in admin's current password, for every operation that asks for
 * it (change email, change password, turn two-factor off, new recovery codes). Whoever holds
 * a session (a stolen cookie included) gets MAX_WRONG_CURRENT_PASSWORDS wrong answers per
 * account per window across all of them, then 429 until the window ends; a right answer
 * clears the count. docs/security.md, "Two-factor and current-password limits".
 */
export const MAX_WRONG_CURRENT_PASSWORDS = 10;

export const currentPasswordKey = (userId: string) => `account:password:${userId}`;

/** Throws the field error when `password` is not the session admin's, and 429 past the limit. */
export async function checkCurrentPassword(c: Context<AppEnv>, password: string): Promise<void> {
  const db = c.get('db');
  const user = c.get('user');
  const key = currentPasswordKey(user.id);
  // Counted before the check, so parallel guesses cannot slip past the limit.
  const hit = await hitRateLimitsUnlessOver(db, [{ key, limit: MAX_WRONG_CURRENT_PASSWORDS }], SIGN_IN_WINDOW_SECONDS);
  if (hit.over.length > 0) throw tooManyRequests(hit.retryAfterSeconds, 'wrong passwords');
  const hash = await passwordHashOf(db, user.id);
  if (!hash || !(await verifyPassword(hash, password))) {
    throw new AppError('validation_failed', CURRENT_PASSWORD_WRONG, { current_password: CURRENT_PASSWORD_WRONG });
  }
  await undoRateLimitHits(db, [], [key], hit.windowStart);
}
