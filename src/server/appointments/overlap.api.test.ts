import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAppointmentRequestSchema } from '#shared/schemas/appointment';
import { zonedInstant } from '#shared/zoned-time';
import { createAppointment } from '../db/queries/appointments-queries.ts';
import { insertConnection, storeSyncSuccess } from '../db/queries/calendar-connections-queries.ts';
import { useAppointmentStaff } from '../test/appointment-staff.ts';
import { useTestDatabase } from '../test/database.ts';
import { refusalOf } from '../test/refusal.ts';
import { BUSY_OUTSIDE, OVERLAP, outsideBusyAt, overlapRace, requireNoOverlap } from './overlap.ts';

const database = useTestDatabase();
const people = useAppointmentStaff(database);

const at = (time: string, host_id: string | null = people.owner, duration_minutes = 30, buffer_minutes = 0) => ({
  date: people.day(3),
  time,
  duration_minutes,
  buffer_minutes,
  host_id,
});
/** An appointment of the owner's at `time` on day 3, as the database stores one (no checks). */
const booked = (time: string, buffer = 0) =>
  createAppointment(
    database.db,
    createAppointmentRequestSchema.parse({ lead_id: people.lead, date: people.day(3), time, type: 'Call', host_id: people.owner }),
    { changedBy: people.owner, bufferMinutes: buffer },
  );
/** A busy time in the owner's outside calendar from `from` to `to` on day 3. */
async function busyOutside(from: string, to: string) {
  const id = randomUUID();
  await insertConnection(database.db, { id, userId: people.owner, kind: 'ics', label: 'calendar', secret: 'sealed' }, 10);
  const instant = (time: string) => zonedInstant(people.day(3), Number(time.slice(0, 2)) * 60 + Number(time.slice(3)), people.timeZone)!;
  await storeSyncSuccess(
    database.db,
    { id, user_id: people.owner, busy_digest: null },
    {
      busy: [{ start: instant(from), end: instant(to) }],
      warnings: [],
      digest: 'd',
    },
  );
}

describe('requireNoOverlap', () => {
  it('refuses a time over another appointment of the host’s, buffers included, listing it; other hosts and times are free', async () => {
    const other = (await booked('10:00'))!;
    const refused = await refusalOf(requireNoOverlap(database.db, people.timeZone, at('10:15')));
    expect(refused).toMatchObject({ status: 409, message: OVERLAP });
    await requireNoOverlap(database.db, people.timeZone, at('10:30'));
    await requireNoOverlap(database.db, people.timeZone, at('10:15', people.staff));
    // Its own time when it moves.
    await requireNoOverlap(database.db, people.timeZone, at('10:00'), other.id);
    // A call with a 15-minute buffer blocks 15:45 to 16:45.
    await booked('16:00', 15);
    expect(await refusalOf(requireNoOverlap(database.db, people.timeZone, at('16:30')))).toMatchObject({ status: 409 });
    await requireNoOverlap(database.db, people.timeZone, at('16:45'));
  });

  it('refuses a busy time in the host’s outside calendar, saying so', async () => {
    await busyOutside('14:00', '15:00');
    expect(await outsideBusyAt(database.db, people.timeZone, at('14:30'))).toBe(true);
    expect(await outsideBusyAt(database.db, people.timeZone, at('15:00'))).toBe(false);
    expect(await outsideBusyAt(database.db, people.timeZone, at('13:30'))).toBe(false);
    expect(await outsideBusyAt(database.db, people.timeZone, at('13:30', people.owner, 30, 1))).toBe(true);
    expect(await outsideBusyAt(database.db, people.timeZone, at('14:30', null))).toBe(false);
    expect(await refusalOf(requireNoOverlap(database.db, people.timeZone, at('14:30')))).toMatchObject({
      status: 409,
      message: BUSY_OUTSIDE,
    });
  });
});

describe('overlapRace (the rule in SQL: the no-overlap constraint)', () => {
  it('answers the database’s refusal of an overlap made meanwhile with the same 409', async () => {
    await booked('11:00');
    // Checked before the other went in: the constraint refuses the write itself.
    const refused = await refusalOf(
      overlapRace(database.db, people.timeZone, at('11:00'), undefined, async () => (await booked('11:00'))!),
    );
    expect(refused).toMatchObject({ status: 409, message: OVERLAP });
    expect(await overlapRace(database.db, people.timeZone, at('12:00'), undefined, async () => 'written')).toBe('written');
    const other = new Error('connection reset');
    await expect(overlapRace(database.db, people.timeZone, at('12:00'), undefined, () => Promise.reject(other))).rejects.toBe(other);
  });
});
