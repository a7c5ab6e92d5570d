import type { Db } from '../db/client.ts';
import { isActiveMember } from '../db/queries/availability-queries.ts';
import { AppError } from '../lib/app-error.ts';

export const NO_SUCH_HOST = 'Choose who takes the call';

/** The host chosen for an appointment is a team member who can sign in (400 on the field otherwise). */
export async function requireActiveHost(db: Db, hostId: string): Promise<void> {
  if (!(await isActiveMember(db, hostId)))
    throw new AppError('validation_failed', 'That person is not an active team member.', { host_id: NO_SUCH_HOST });
}
