import { claimConnection } from '../db/queries/calendar-connections-queries.ts';
import { AppError } from '../lib/app-error.ts';
import type { CalendarAccess } from './calendar-access.ts';
import { noSuchCalendar } from './own-connection.ts';
import { syncClaimed } from './sync.ts';

/**
 * "Sync now" (POST /api/account/calendars/{id}/sync): the person's calendar read at once, its
 * outcome stored as any sync's (an error is its `last_error`, not a refusal); 404 when it is not
 * theirs, 409 while another sync, in any process, holds it.
 */
export async function syncNow(access: CalendarAccess, userId: string, id: string): Promise<void> {
  const claimed = await claimConnection(access.db, userId, id);
  if (!claimed) throw noSuchCalendar();
  if (claimed === 'busy') throw new AppError('conflict', 'This calendar is being synced right now. Try again in a moment.');
  await syncClaimed(access, claimed);
}
