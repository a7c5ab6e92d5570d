import { clockMinutes, zonedInstant } from '#shared/zoned-time';
import { AppError } from '../lib/app-error.ts';

export const IN_THE_PAST = 'Appointment must be in the future';

/**
 * A new or moved appointment starts after now, on the business clock (`timeZone`): 400 on the
 * time for one in the past, or for a clock time the day does not have (the clocks change).
 */
export function requireFuture(timeZone: string, date: string, time: string, now = Date.now()): void {
  const at = zonedInstant(date, clockMinutes(time), timeZone);
  if (at === undefined)
    throw new AppError('validation_failed', 'That time does not exist on that day (the clocks change).', { time: 'Invalid time' });
  if (at <= now) throw new AppError('validation_failed', IN_THE_PAST, { time: IN_THE_PAST });
}
