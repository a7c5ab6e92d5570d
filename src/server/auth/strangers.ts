import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { findSessionUser } from '../db/queries/sessions-queries.ts';
import { isUsualSignInIp } from '../db/queries/sign-in-ips-queries.ts';
import { isTrustedDevice } from '../db/queries/two-factor-queries.ts';
import { signInDelayMs } from './sign-in-limits.ts';

/**
 * Past an account's bound of failures (sign-in-limits.ts), an attempt from anyone but its owner
 * waits before it is checked: strangers failing against the account from many addresses slow
 * everyone but its owner, and can never lock the owner out. docs/security.md, "Sign-in limits".
 */

/** Where an attempt comes from: its client address, and the session and remembered device its browser holds, if any. */
export type AttemptSource = { ip: string; sessionToken: string | undefined; deviceToken: string | undefined };

/**
 * The account's owner: an address it signed in from lately (all the way: with the code, when it
 * has two-factor), a live session of the same account, or a device remembered for it.
 */
export async function isOwnersSource(db: Db, userId: string, source: AttemptSource): Promise<boolean> {
  if (await isUsualSignInIp(db, userId, source.ip)) return true;
  if (source.sessionToken !== undefined && (await findSessionUser(db, source.sessionToken))?.id === userId) return true;
  return source.deviceToken !== undefined && (await isTrustedDevice(db, userId, source.deviceToken));
}

/** What slowStrangers is handed: the database, where the attempt comes from, and where to log a wait. */
export type StrangerCheck = { db: Db; source: AttemptSource; logger: Logger; requestId: string };

/**
 * Waits as long as the account's failures in the window ask (`accountFailures`, this attempt
 * included) unless the attempt is its owner's; the wait says nothing about the answer, and no
 * database connection is held meanwhile. `event` names the wait in the log.
 */
export async function slowStrangers(
  check: StrangerCheck,
  userId: string | undefined,
  accountFailures: number,
  event: string,
  wait: (ms: number) => Promise<unknown> = sleep,
): Promise<void> {
  const delayMs = signInDelayMs(accountFailures);
  if (delayMs === 0 || (userId !== undefined && (await isOwnersSource(check.db, userId, check.source)))) return;
  check.logger.info({ event, delayMs, requestId: check.requestId }, 'attempt slowed');
  await wait(delayMs);
}
