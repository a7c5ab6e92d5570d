import type { Db } from '../db/client.ts';
import { hitRateLimitsUnlessOver } from '../db/queries/rate-limits-queries.ts';
import { tooManyRequests } from '../lib/app-error.ts';
import { SIGN_IN_WINDOW_SECONDS } from './sign-in-limits.ts';

/**
 * "Forgot your password?" requests are limited per email from one address and per address, in
 * a sign-in window (15 minutes), before anything is looked up (docs/security.md); per account,
 * the links sent are limited too (MAX_RESETS_PER_ACCOUNT_PER_HOUR, db/queries/account-queries.ts), which
 * only the log says, since the answer is the same for every email.
 */

/** Requests per email from one IP, and per IP, in a sign-in window (15 minutes). */
export const MAX_RESETS_PER_EMAIL_AND_IP = 3;
export const MAX_RESETS_PER_IP = 20;

/** Counts a request for `email` from `ip` (a rate-limit key: an IPv6 client's /64); 429 past either limit, counting nothing. */
export async function limitResetRequests(db: Db, email: string, ip: string): Promise<void> {
  const pair = `reset:pair:${ip} ${email}`;
  const hit = await hitRateLimitsUnlessOver(
    db,
    [
      { key: pair, limit: MAX_RESETS_PER_EMAIL_AND_IP },
      { key: `reset:ip:${ip}`, limit: MAX_RESETS_PER_IP },
    ],
    SIGN_IN_WINDOW_SECONDS,
  );
  if (hit.over.length > 0)
    throw tooManyRequests(
      hit.retryAfterSeconds,
      hit.over.includes(pair) ? 'reset requests for this email from your network' : 'reset requests from your network',
    );
}
