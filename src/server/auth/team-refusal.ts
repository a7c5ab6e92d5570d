import { TeamChangeRefused } from '../db/queries/team-queries.ts';
import { AppError } from '../lib/app-error.ts';

/**
 * A team change the database refused (TeamChangeRefused: the last active owner, someone no
 * longer on the team, an email already on it) as the API answers it: 404 for what is not
 * there, 409 otherwise, with its message. Anything else is thrown as it was. For `.catch(teamRefusal)`.
 */
export function teamRefusal(err: unknown): never {
  if (err instanceof TeamChangeRefused) throw new AppError(err.kind === 'not_found' ? 'not_found' : 'conflict', err.message);
  throw err;
}
