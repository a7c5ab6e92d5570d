import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ensureAdmin } from '../auth/accounts.ts';
import { calendarAccess } from '../calendars/calendar-access.ts';
import type { Database } from '../db/client.ts';
import { execute } from '../db/sql.ts';
import { createTestApp } from './test-app.ts';
import { icsOf, icsUtc, startCalendarServer } from './calendar-server.ts';

/**
 * For calendars/' own tests, which call its actions directly (call at a test file's top level):
 * a calendar server on the loopback that the app may reach, and before each test two people on
 * a cleared database, with the access calendars/ is handed, as routes/calendars-routes.ts builds it.
 */
export function useCalendarPeople(database: Database) {
  const parts = {} as {
    calendars: Awaited<ReturnType<typeof startCalendarServer>>;
    t: ReturnType<typeof createTestApp>;
    person: string;
    other: string;
  };
  beforeAll(async () => {
    parts.calendars = await startCalendarServer();
    parts.t = createTestApp(database, {
      BUSINESS_TIME_ZONE: 'America/New_York',
      OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${parts.calendars.port}`,
    });
  });
  afterAll(async () => {
    await parts.calendars.close();
  });
  beforeEach(async () => {
    await execute(database.db, sql`truncate users, calendar_connections, notifications cascade`);
    parts.person = (await ensureAdmin(database.db, 'olive@example.com', 'olive-password')).user.id;
    parts.other = (await ensureAdmin(database.db, 'sam@example.com', 'sam-password', 'staff')).user.id;
  });
  return Object.assign(parts, {
    access: () => calendarAccess(database.db, parts.t.config, parts.t.vault),
    /** A calendar busy for an hour `days` days from now, for each of `days` (one event each). */
    busyIn: (...days: number[]) =>
      icsOf(
        ...days.map((n, i) => {
          const start = Math.ceil((Date.now() + n * 86_400_000) / 3_600_000) * 3_600_000;
          return [`UID:event-${i}`, `DTSTAMP:${icsUtc(Date.now())}`, `DTSTART:${icsUtc(start)}`, `DTEND:${icsUtc(start + 3_600_000)}`];
        }),
      ),
  });
}
