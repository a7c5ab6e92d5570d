import { describe, expect, it } from 'vitest';
import { createAppointmentRequestSchema } from '#shared/schemas/appointment';
import { useAppointmentStaff } from '../test/appointment-staff.ts';
import { useTestDatabase } from '../test/database.ts';
import { refusalOf } from '../test/refusal.ts';
import { OVERLAP } from './overlap.ts';
import { scheduleAppointment } from './schedule-appointment.ts';

const database = useTestDatabase();
const people = useAppointmentStaff(database);
const request = (fields: Record<string, unknown> = {}) =>
  createAppointmentRequestSchema.parse({ lead_id: people.lead, date: people.day(4), time: '10:00', type: 'Call', ...fields });

describe('scheduleAppointment', () => {
  it('schedules with the admin as host, 30 minutes, unless they say otherwise', async () => {
    const mine = await scheduleAppointment(database.db, people.as(people.owner), request());
    expect(mine).toMatchObject({ lead_id: people.lead, date: people.day(4), time: '10:00', duration_minutes: 30, host_id: people.owner });
    const theirs = await scheduleAppointment(
      database.db,
      people.as(people.owner),
      request({ host_id: people.staff, duration_minutes: 60 }),
    );
    expect(theirs).toMatchObject({ host_id: people.staff, duration_minutes: 60 });
  });

  it('refuses the past, a host who is not an active member, a lead that is gone, and an overlap unless allowed', async () => {
    const staff = people.as(people.owner);
    expect(await refusalOf(scheduleAppointment(database.db, staff, request({ date: people.day(-1) })))).toMatchObject({ status: 400 });
    expect(await refusalOf(scheduleAppointment(database.db, staff, request({ host_id: crypto.randomUUID() })))).toMatchObject({
      status: 400,
      fields: { host_id: 'Choose who takes the call' },
    });
    expect(await refusalOf(scheduleAppointment(database.db, staff, request({ lead_id: crypto.randomUUID() })))).toMatchObject({
      status: 422,
      fields: { lead_id: 'Please select a lead' },
    });
    await scheduleAppointment(database.db, staff, request({ time: '11:00' }));
    expect(await refusalOf(scheduleAppointment(database.db, staff, request({ time: '11:15' })))).toMatchObject({
      status: 409,
      message: OVERLAP,
    });
    expect(await scheduleAppointment(database.db, staff, request({ time: '11:15', allow_overlap: true }))).toMatchObject({ time: '11:15' });
  });
});
