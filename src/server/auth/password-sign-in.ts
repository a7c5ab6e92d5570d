import type { AuditActor } from '../db/queries/audit-log-queries.ts';
import { recordAudit } from '../db/queries/audit-log-queries.ts';
import { undoRateLimitHits } from '../db/queries/rate-limits-queries.ts';
import { findPasswordHash } from '../db/queries/users-queries.ts';
import { AppError } from '../lib/app-error.ts';
import { rateLimitKey } from '../lib/client-address.ts';
import { countFailure } from './count-failure.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { signInKeys, TOO_MANY_FOR_IP, TOO_MANY_FOR_PAIR } from './sign-in-limits.ts';
import { slowStrangers, type StrangerCheck } from './strangers.ts';

export const ACCOUNT_DEACTIVATED = 'This account has been deactivated. Ask an owner of your team to reactivate it.';

// An unknown email is checked against this hash, so it costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => (dummyHash ??= hashPassword(crypto.randomUUID()));

/** A sign-in step's request: where it comes from (strangers.ts) and who acts, for the audit log. */
export type SignInRequest = StrangerCheck & { actor: (user?: { id: string; email: string }) => AuditActor };

/**
 * The password step of a sign-in (POST /api/auth/login): the attempt is counted before the
 * password is looked at (count-failure.ts; a blocked attempt writes nothing and is refused,
 * right or wrong), strangers wait past the account's bound (strangers.ts), and an unknown
 * email and a wrong password cost the same time and get the same 401, audited. The account
 * when the password is right; 403 when it is deactivated (said only to someone who knows the
 * password). A right password takes its count back.
 */
export async function checkPassword(request: SignInRequest, email: string, password: string) {
  const { db, source, logger, requestId } = request;
  // IPv6 clients count by their /64 (lib/client-address.ts); the usual-IP check keeps the address.
  const keys = signInKeys(email, rateLimitKey(source.ip));
  const hit = await countFailure(db, keys, { ip: TOO_MANY_FOR_IP, pair: TOO_MANY_FOR_PAIR });
  const account = await findPasswordHash(db, email);
  await slowStrangers(request, account?.id, hit.counts.get(keys.account) ?? 0, 'login_slowed');
  const valid = await verifyPassword(account?.password_hash ?? (await getDummyHash()), password);
  if (!account || !valid) {
    logger.info({ event: 'login_failed', requestId }, 'failed sign-in');
    await recordAudit(
      db,
      { ...request.actor(undefined), email },
      { action: 'sign_in_failed', targetType: 'account', targetId: account?.id ?? null },
    );
    throw new AppError('unauthorized', 'Invalid credentials');
  }
  if (account.deactivated) throw new AppError('forbidden', ACCOUNT_DEACTIVATED);
  await undoRateLimitHits(db, [keys.ip, keys.account], [keys.pair], hit.windowStart);
  return account;
}
