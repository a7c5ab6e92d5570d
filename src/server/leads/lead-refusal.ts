import { LeadUpdateRefused } from '../db/queries/leads-queries.ts';
import { AppError } from '../lib/app-error.ts';

/**
 * A lead change the database refused (LeadUpdateRefused: an owner who cannot take leads, a
 * stage that does not exist...) as the API answers it: 400 on the field, with its message.
 * Anything else is thrown as it was. For `.catch(leadRefusal)` on an update.
 */
export function leadRefusal(err: unknown): never {
  if (err instanceof LeadUpdateRefused) throw new AppError('validation_failed', err.message, { [err.field]: err.message });
  throw err;
}
