import type { CalendarConnection } from '#shared/schemas/calendars';
import type { Db } from '../db/client.ts';
import { getConnection } from '../db/queries/calendar-connections-queries.ts';
import { AppError } from '../lib/app-error.ts';

/** A calendar that is not (or no longer) the person's: 404, whoever else's it may be. */
export const noSuchCalendar = () => new AppError('not_found', 'Calendar not found.');

/** The person's calendar as the API shows it (never its link or password); 404 when it is gone (removed meanwhile by another tab). */
export async function ownConnection(db: Db, userId: string, id: string): Promise<CalendarConnection> {
  const connection = await getConnection(db, userId, id);
  if (!connection) throw noSuchCalendar();
  return connection;
}
