import { sql } from 'drizzle-orm';
import { beforeEach, expect } from 'vitest';
import { addDays, zonedParts } from '#shared/zoned-time';
import type { Staff } from '../appointments/schedule-appointment.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import type { Database } from '../db/client.ts';
import { appointmentMailOf } from '../db/queries/appointments-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from './test-app.ts';

const TZ = 'America/New_York';

/**
 * For appointments/' own tests, which call its actions directly (call at a test file's top
 * level): before each test, an owner and a staff member on a cleared database, a lead, and what
 * appointments/ is handed for either of them, as routes/appointments-routes.ts builds it.
 */
export function useAppointmentStaff(database: Database) {
  const parts = {} as { t: ReturnType<typeof createTestApp>; owner: string; staff: string; lead: string };
  beforeEach(async () => {
    await execute(
      database.db,
      sql`truncate users, sessions, leads, appointments, booking_settings, notifications, emails, calendar_connections, audit_log cascade`,
    );
    parts.t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
    parts.owner = (await ensureAdmin(database.db, 'olive@example.com', 'olive-password')).user.id;
    parts.staff = (await ensureAdmin(database.db, 'sam@example.com', 'sam-password', 'staff')).user.id;
    const cookie = await signIn(parts.t.json, 'olive@example.com', 'olive-password');
    const res = await parts.t.json('POST', '/api/leads', validLead(), { cookie });
    expect(res.status).toBe(201);
    parts.lead = ((await res.json()) as { id: string }).id;
  });
  return Object.assign(parts, {
    timeZone: TZ,
    /** What appointments/ is handed for `userId`. */
    as: (userId: string): Staff => ({ userId, timeZone: TZ, mail: appointmentMailOf(parts.t.config) }),
    /** The business date `n` days from today. */
    day: (n: number) => addDays(zonedParts(Date.now(), TZ).date, n),
  });
}
