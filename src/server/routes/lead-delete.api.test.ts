import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Appointment } from '#shared/schemas/appointment';
import type { Lead } from '#shared/schemas/lead';
import type { AppointmentCounts, DeleteLeadResponse } from '#shared/schemas/lead-privacy';
import { addDays, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

const TZ = 'America/New_York';
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
let adminId: string;

beforeAll(() => {
  t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
});
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, appointments, notifications, emails, rate_limits cascade`);
  adminId = (await ensureAdmin(database.db, 'desk@example.com', 'desk-password')).user.id;
  cookie = await signIn(t.json, 'desk@example.com', 'desk-password');
});

async function api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = { cookie }) {
  const res = await t.json(method, path, body, headers);
  return { status: res.status, body: (await res.json()) as T };
}
const day = (n: number) => addDays(zonedParts(Date.now(), TZ).date, n);

type Row = { id: string; lead_id: string | null; status: string; cancelled_by: string | null; changed_by: string | null };
const appointmentRows = () =>
  rowsOf<Row>(database.db, sql`select id, lead_id, status, cancelled_by, changed_by from appointments order by date, time`);
/** The cancellations queued to the person: they outlive the lead (the lead's other emails do not). */
const cancellations = () =>
  rowsOf<{ to_address: string; lead_id: string | null; appointment_id: string }>(
    database.db,
    sql`select to_address, lead_id, data->>'appointment_id' as appointment_id from emails where kind = 'appointment' and data->>'change' = 'cancelled' order by created_at`,
  );

/** A lead with an appointment to come, one past (never marked done) and one to come but cancelled already; and another lead's. */
async function leadWithAppointments() {
  const lead = (
    await api<Lead>('POST', '/api/leads', {
      full_name: 'Dana Delete',
      email: 'dana@example.com',
      phone: '555-0100',
      property_types: ['land'],
    })
  ).body;
  const other = (
    await api<Lead>('POST', '/api/leads', {
      full_name: 'Otto Other',
      email: 'otto@example.com',
      phone: '555-0101',
      property_types: ['land'],
    })
  ).body;
  const schedule = async (leadId: string, date: string, time: string) =>
    (await api<Appointment>('POST', '/api/appointments', { lead_id: leadId, date, time, type: 'Zoom', notes: 'Bring comps' })).body;
  const upcoming = await schedule(lead.id, day(3), '10:00');
  const cancelled = await schedule(lead.id, day(4), '10:00');
  expect((await api('PATCH', `/api/appointments/${cancelled.id}`, { status: 'cancelled' })).status).toBe(200);
  const [past] = await rowsOf<{ id: string }>(
    database.db,
    sql`insert into appointments (lead_id, date, time, type) values (${lead.id}, ${day(-3)}, '09:00', 'Call') returning id`,
  );
  const others = await schedule(other.id, day(3), '15:00');
  return { lead, other, upcoming, cancelled, past: past!, others };
}

describe('GET /api/leads/{id}/appointment-counts', () => {
  it('counts all the lead’s appointments and those still to come', async () => {
    const { lead, other } = await leadWithAppointments();
    expect((await api<AppointmentCounts>('GET', `/api/leads/${lead.id}/appointment-counts`)).body).toEqual({ total: 3, upcoming: 1 });
    expect((await api<AppointmentCounts>('GET', `/api/leads/${other.id}/appointment-counts`)).body).toEqual({ total: 1, upcoming: 1 });
    expect((await api('GET', '/api/leads/00000000-0000-4000-8000-000000000000/appointment-counts')).status).toBe(404);
    expect((await api('GET', `/api/leads/${lead.id}/appointment-counts`, undefined, {})).status).toBe(401);
  });
});

describe('DELETE /api/leads/{id} with appointments', () => {
  it.each(['', '?appointments=keep'])('keeps them (%j: the default), as Unknown Lead, unchanged, and tells no one', async (query) => {
    const { lead, others } = await leadWithAppointments();
    const res = await api<DeleteLeadResponse>('DELETE', `/api/leads/${lead.id}${query}`);
    expect(res).toEqual({ status: 200, body: { id: lead.id, appointments_cancelled: 0, appointments_deleted: 0 } });
    const rows = await appointmentRows();
    expect(rows).toHaveLength(4);
    expect(rows.filter((r) => r.id !== others.id).map((r) => [r.lead_id, r.status])).toEqual([
      [null, 'scheduled'],
      [null, 'scheduled'],
      [null, 'cancelled'],
    ]);
    expect((await api<Appointment>('GET', `/api/appointments/${rows[1]!.id}`)).body.lead).toBeNull();
    expect(await cancellations()).toEqual([]);
    expect(await rowsOf(database.db, sql`select 1 from emails where lead_id = ${lead.id}`)).toEqual([]);
    expect((await api('GET', `/api/leads/${lead.id}`)).status).toBe(404);
  });

  it('cancels those still to come, by staff and this admin, keeps them all, and emails the person that the call is off', async () => {
    const { lead, upcoming, cancelled, past, others } = await leadWithAppointments();
    const res = await api<DeleteLeadResponse>('DELETE', `/api/leads/${lead.id}?appointments=cancel`);
    expect(res).toEqual({ status: 200, body: { id: lead.id, appointments_cancelled: 1, appointments_deleted: 0 } });
    const byId = new Map((await appointmentRows()).map((r) => [r.id, r]));
    expect(byId.get(upcoming.id)).toMatchObject({ lead_id: null, status: 'cancelled', cancelled_by: 'staff', changed_by: adminId });
    // Cancelled before by staff, and the past one: as they were.
    expect(byId.get(cancelled.id)).toMatchObject({ lead_id: null, status: 'cancelled' });
    expect(byId.get(past.id)).toMatchObject({ lead_id: null, status: 'scheduled' });
    expect(byId.get(others.id)).toMatchObject({ status: 'scheduled', lead_id: expect.any(String) });
    // The earlier cancellation's email went with the lead; this one is on its way.
    expect(await cancellations()).toEqual([{ to_address: 'dana@example.com', lead_id: null, appointment_id: upcoming.id }]);
  });

  it('deletes them all, emailing the person about the one still to come', async () => {
    const { lead, upcoming, others } = await leadWithAppointments();
    const res = await api<DeleteLeadResponse>('DELETE', `/api/leads/${lead.id}?appointments=delete`);
    expect(res).toEqual({ status: 200, body: { id: lead.id, appointments_cancelled: 0, appointments_deleted: 3 } });
    expect((await appointmentRows()).map((r) => r.id)).toEqual([others.id]);
    expect(await cancellations()).toEqual([{ to_address: 'dana@example.com', lead_id: null, appointment_id: upcoming.id }]);
  });

  it('refuses an unknown choice and deletes nothing; 404 for an unknown lead', async () => {
    const { lead } = await leadWithAppointments();
    const res = await api<{ error: { fields: Record<string, string> } }>('DELETE', `/api/leads/${lead.id}?appointments=archive`);
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({ appointments: 'Choose keep, cancel or delete' });
    expect((await api('GET', `/api/leads/${lead.id}`)).status).toBe(200);
    expect((await api('DELETE', '/api/leads/00000000-0000-4000-8000-000000000000?appointments=delete')).status).toBe(404);
    expect(await appointmentRows()).toHaveLength(4);
  });
});
