import { describe, expect, it } from 'vitest';
import { createAppointmentRequestSchema, updateAppointmentRequestSchema } from '#shared/schemas/appointment';
import { useAppointmentStaff } from '../test/appointment-staff.ts';
import { useTestDatabase } from '../test/database.ts';
import { refusalOf } from '../test/refusal.ts';
import { blocksMore, editAppointment } from './edit-appointment.ts';
import { OVERLAP } from './overlap.ts';
import { scheduleAppointment } from './schedule-appointment.ts';

const database = useTestDatabase();
const people = useAppointmentStaff(database);
const schedule = (time: string, fields: Record<string, unknown> = {}) =>
  scheduleAppointment(
    database.db,
    people.as(people.owner),
    createAppointmentRequestSchema.parse({ lead_id: people.lead, date: people.day(4), time, type: 'Call', ...fields }),
  );
const edit = (id: string, patch: Record<string, unknown>) =>
  editAppointment(database.db, people.as(people.owner), id, updateAppointmentRequestSchema.parse(patch));

describe('blocksMore', () => {
  const current = { date: '2026-05-04', time: '10:00', duration_minutes: 30, status: 'scheduled' as const, host_id: 'a' };
  const same = { date: '2026-05-04', time: '10:00', duration_minutes: 30, host_id: 'a' };
  it('is a move, another host, a longer call, or scheduling it again; not a shorter one or a note', () => {
    expect(blocksMore(current, same, undefined)).toBe(false);
    expect(blocksMore(current, { ...same, duration_minutes: 15 }, undefined)).toBe(false);
    expect(blocksMore(current, { ...same, time: '10:30' }, undefined)).toBe(true);
    expect(blocksMore(current, { ...same, date: '2026-05-05' }, undefined)).toBe(true);
    expect(blocksMore(current, { ...same, host_id: 'b' }, undefined)).toBe(true);
    expect(blocksMore(current, { ...same, duration_minutes: 45 }, undefined)).toBe(true);
    expect(blocksMore({ ...current, status: 'cancelled' }, same, 'scheduled')).toBe(true);
    expect(blocksMore(current, same, 'scheduled')).toBe(false);
  });
});

describe('editAppointment', () => {
  it('changes only what was sent, answering it before and after', async () => {
    const made = await schedule('10:00');
    const { current, appointment } = await edit(made.id, { notes: 'Bring the rent roll', duration_minutes: 45 });
    expect(current).toMatchObject({ time: '10:00', duration_minutes: 30 });
    expect(appointment).toMatchObject({ time: '10:00', duration_minutes: 45, notes: 'Bring the rent roll', host_id: people.owner });
  });

  it('checks a move and a new host as a new appointment would be; a shorter call or a note is not checked', async () => {
    const first = await schedule('10:00');
    const second = await schedule('11:00');
    expect(await refusalOf(edit(second.id, { time: '10:15' }))).toMatchObject({ status: 409, message: OVERLAP });
    expect(await edit(second.id, { time: '10:15', allow_overlap: true })).toMatchObject({ appointment: { time: '10:15' } });
    // Over the other already (allowed): a note is no new overlap.
    expect(await edit(second.id, { notes: 'ok' })).toMatchObject({ appointment: { notes: 'ok' } });
    expect(await refusalOf(edit(first.id, { host_id: crypto.randomUUID() }))).toMatchObject({ status: 400 });
    expect(await edit(first.id, { host_id: people.staff })).toMatchObject({ appointment: { host_id: people.staff } });
    expect(await refusalOf(edit(first.id, { date: people.day(-2) }))).toMatchObject({ status: 400 });
  });

  it('answers 404 for no such appointment', async () => {
    expect(await refusalOf(edit(crypto.randomUUID(), { notes: 'x' }))).toMatchObject({ status: 404, message: 'Appointment not found.' });
  });
});
