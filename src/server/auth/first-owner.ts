import type { Logger } from 'pino';
import type { CurrentUser } from '#shared/schemas/auth';
import type { Db } from '../db/client.ts';
import type { AuditActor } from '../db/queries/audit-log-queries.ts';
import { createFirstOwner } from '../db/queries/team-queries.ts';
import { AppError } from '../lib/app-error.ts';
import type { FirstRunLink } from '../lib/first-run-link.ts';
import { hashPassword } from './password.ts';

/**
 * The first owner's set-up (lib/first-run-link.ts): while nobody has an account, the link the
 * server printed in its log creates the first owner, once. Of two set-ups at once, or of two
 * processes' links, the first wins (createFirstOwner refuses once an account exists).
 */

export const SETUP_NOT_VALID =
  'This set-up link is not valid: the first owner exists already, or the server restarted and printed a new link in its log.';

/** The link still works (404 otherwise). */
export function requireSetupLink(firstRun: FirstRunLink | undefined, token: string): FirstRunLink {
  if (!firstRun?.accepts(token)) throw new AppError('not_found', SETUP_NOT_VALID);
  return firstRun;
}

/** Creates the first owner with the link `token`, which is used up whatever the outcome; 404 when it does not work or someone was first. */
export async function setUpFirstOwner(
  db: Db,
  firstRun: FirstRunLink | undefined,
  owner: { token: string; email: string; displayName: string; password: string },
  actor: Omit<AuditActor, 'id' | 'email'>,
  logger: Logger,
): Promise<CurrentUser> {
  const link = requireSetupLink(firstRun, owner.token);
  const user = await createFirstOwner(
    db,
    { email: owner.email, displayName: owner.displayName, passwordHash: await hashPassword(owner.password) },
    actor,
  );
  link.consume();
  if (!user) throw new AppError('not_found', SETUP_NOT_VALID);
  logger.info({ event: 'first_owner_created', email: owner.email }, 'created the first owner from the set-up link');
  return user;
}
