import type { CurrentUser } from '#shared/schemas/auth';
import type { Role } from '#shared/constants';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { AuditActor } from '../db/queries/audit-log-queries.ts';
import { queueMailOf } from '../db/queries/emails-queries.ts';
import { acceptInvite, createInvite, findInvite, INVITE_NOT_VALID } from '../db/queries/team-queries.ts';
import { AppError } from '../lib/app-error.ts';
import { hashToken, newSecretToken } from '../lib/secret-token.ts';
import { hashPassword } from './password.ts';
import { teamRefusal } from './team-refusal.ts';

/**
 * Joining the team by invitation (docs/product-rules.md, "The team"): an owner invites an email
 * with a single-use link, valid 72 hours, emailed (and answered, to copy when email is off);
 * its person accepts it by giving their name and choosing a password. The token is stored only
 * as its hash.
 */

/** Invites `email` as `role`: the invitation, its link, and whether it was emailed. 409 when already on the team. */
export async function inviteMember(db: Db, config: Config, invite: { email: string; role: Role }, actor: AuditActor) {
  const token = newSecretToken();
  const link = `${config.publicUrl}/invite/${token}`;
  const mail = queueMailOf(config.mail);
  const made = await createInvite(db, { ...invite, tokenHash: hashToken(token), link }, actor, mail).catch(teamRefusal);
  return { invite: made, link, emailed: mail.sending };
}

/**
 * Accepts the invitation `token`: the account is made with the invited role, the token used up.
 * The token is checked before the password is hashed (argon2id, the costly part), so a made-up
 * token is answered without it; the accept checks it again in the short transaction that uses
 * it up (two tabs at once make one account). 404 for a used, withdrawn, expired or unknown one.
 */
export async function acceptInvitation(
  db: Db,
  accepted: { token: string; displayName: string; password: string },
  actor: Omit<AuditActor, 'id' | 'email'>,
): Promise<CurrentUser> {
  const tokenHash = hashToken(accepted.token);
  if (!(await findInvite(db, tokenHash))) throw new AppError('not_found', INVITE_NOT_VALID);
  return acceptInvite(
    db,
    tokenHash,
    { displayName: accepted.displayName, passwordHash: await hashPassword(accepted.password) },
    actor,
  ).catch(teamRefusal);
}
