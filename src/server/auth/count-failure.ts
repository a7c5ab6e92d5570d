import type { Db } from '../db/client.ts';
import { hitRateLimitsUnlessOver } from '../db/queries/rate-limits-queries.ts';
import { tooManyRequests } from '../lib/app-error.ts';
import { MAX_FAILURES_PER_ACCOUNT_AND_IP, MAX_FAILURES_PER_IP, SIGN_IN_WINDOW_SECONDS } from './sign-in-limits.ts';

/**
 * Counts a sign-in attempt (a password, or a two-factor code) against its three keys (this
 * account from this address, this address, this account), before the secret is looked at, so
 * parallel guesses cannot all slip in under a limit; past the address's or the pair's limit it
 * is refused with 429 and that limit's message, and counts nothing. The account's own count
 * only slows attempts (strangers.ts: no lockout). docs/security.md, "Sign-in limits". A right
 * secret takes its count back (undoRateLimitHits with the answer's window).
 */
export async function countFailure(db: Db, keys: { pair: string; ip: string; account: string }, refused: { ip: string; pair: string }) {
  const hit = await hitRateLimitsUnlessOver(
    db,
    [
      { key: keys.pair, limit: MAX_FAILURES_PER_ACCOUNT_AND_IP },
      { key: keys.ip, limit: MAX_FAILURES_PER_IP },
      { key: keys.account, limit: null },
    ],
    SIGN_IN_WINDOW_SECONDS,
  );
  if (hit.over.length > 0) throw tooManyRequests(hit.retryAfterSeconds, hit.over.includes(keys.ip) ? refused.ip : refused.pair);
  return hit;
}
