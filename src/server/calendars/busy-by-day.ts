import type { OutsideBlock } from '#shared/schemas/calendars';
import { addDays, clockText, zonedInstant, zonedParts } from '#shared/zoned-time';
import { blockedRanges, type Busy } from '../lib/busy-times.ts';
import type { Db } from '../db/client.ts';
import { isActiveMember } from '../db/queries/availability-queries.ts';
import { readOutsideBusy } from '../db/queries/calendar-connections-queries.ts';
import { AppError } from '../lib/app-error.ts';

/** The longest range the busy times are asked for at once: a month view with its edges (and a clock change). */
export const MAX_BUSY_RANGE_MS = 45 * 86_400_000 + 3_600_000;

/**
 * A team member's busy times from their outside calendars (GET /api/calendar/busy) over the
 * business dates `from` to `to` (both included, at most 45 days: 400 otherwise), merged and cut
 * at the business time zone's midnights: times only, never what the events are. 404 for
 * someone who is not an active member.
 */
export async function outsideBusyByDay(db: Db, timeZone: string, person: string, from: string, to: string): Promise<OutsideBlock[]> {
  const start = zonedInstant(from, 0, timeZone);
  const end = zonedInstant(addDays(to, 1), 0, timeZone);
  if (start === undefined || end === undefined || !(end > start) || end - start > MAX_BUSY_RANGE_MS)
    throw new AppError('validation_failed', 'Ask for at most 45 days, the last on or after the first.');
  if (!(await isActiveMember(db, person))) throw new AppError('not_found', 'Person not found.');
  const busy = blockedRanges(await readOutsideBusy(db, person, start, end), 0);
  return busy.flatMap((b) => piecesByDay(b, timeZone, start, end));
}

/** A busy time within [from, to) cut at the business time zone's midnights, as each date's clock times. */
export function piecesByDay(b: Busy, timeZone: string, from: number, to: number): OutsideBlock[] {
  const pieces: OutsideBlock[] = [];
  const first = Math.max(b.start, from);
  const last = Math.min(b.end, to);
  for (let date = zonedParts(first, timeZone).date; ; date = addDays(date, 1)) {
    const dayStart = zonedInstant(date, 0, timeZone) ?? first;
    const dayEnd = zonedInstant(addDays(date, 1), 0, timeZone) ?? last;
    if (dayStart >= last) break;
    const s = Math.max(first, dayStart);
    const e = Math.min(last, dayEnd);
    if (e > s)
      pieces.push({
        date,
        start: clockText(zonedParts(s, timeZone).minutes),
        end: e >= dayEnd ? '24:00' : clockText(zonedParts(e, timeZone).minutes),
      });
  }
  return pieces;
}
