import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditPage } from '#shared/schemas/audit';
import type { Availability, PublicBooking } from '#shared/schemas/booking';
import type { BulkCancelResponse, WebsiteNetworksResponse } from '#shared/schemas/appointment';
import type { ErrorResponse } from '#shared/schemas/error';
import type { LeadDetail } from '#shared/schemas/lead';
import type { TimelineResponse } from '#shared/schemas/lead-workspace';
import { addDays, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { forgetOldBookingNetworks } from '../db/queries/website-bookings-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

// Staff's bulk cancel of website bookings (docs/security.md, "Website bookings: where they came
// from, and cancelling them at once"). Visitors' addresses come through X-Forwarded-For from a
// trusted proxy: the only way to give a test request an address, IPv6 ones included.
const TZ = 'America/New_York';
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;

const day = (n: number) => addDays(zonedParts(Date.now(), TZ).date, n);

beforeAll(() => {
  t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ, TRUST_PROXY: 'on', BOOKING_RATE_LIMIT: '0', BOOKING_HOLD_ABOVE_PER_HOUR: '0' });
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, booking_settings, booking_tokens, notifications, emails, rate_limits, audit_log cascade`,
  );
  await ensureAdmin(database.db, 'desk@example.com', 'desk-password', 'owner', 'Dee Desk');
  // An admin who asked for appointment emails: a bulk cancel sends them no copy either way.
  await execute(database.db, sql`update users set email_appointments = true`);
  cookie = await signIn(t.json, 'desk@example.com', 'desk-password');
  expect((await admin('PUT', '/api/booking-settings', OPEN_EVERY_DAY)).status).toBe(200);
  expect((await admin('PUT', '/api/account/availability', WORKS_EVERY_DAY)).status).toBe(200);
});

async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await t.json(method, path, body, headers);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}
const admin = <T>(method: string, path: string, body?: unknown) => call<T>(method, path, body, { cookie });
const bulkCancel = (body: Record<string, unknown>) =>
  admin<BulkCancelResponse & ErrorResponse>('POST', '/api/appointments/bulk-cancel', body);
const openSlots = async () => (await call<Availability>('GET', `/api/public/availability?from=${day(2)}&to=${day(2)}`)).body.slots;

type Booked = { email: string; token: string; start: string; leadId: string; appointmentId: string };

/** A visitor at `ip` sends the form and books the `slot`-th time of the day after tomorrow. */
async function bookFrom(ip: string, name: string, slot: number): Promise<Booked> {
  const from = { 'x-forwarded-for': ip };
  const email = `${name.toLowerCase().replace(/ /g, '.')}@example.com`;
  const lead = await call<{ booking_token: string }>('POST', '/api/public/leads', validLead({ full_name: name, email }), from);
  expect(lead.status).toBe(201);
  const start = (await openSlots())[slot]!;
  const booked = await call<PublicBooking>(
    'POST',
    '/api/public/bookings',
    { booking_token: lead.body.booking_token, start, type: 'Call' },
    from,
  );
  expect(booked.status).toBe(201);
  const [row] = await rowsOf<{ id: string; lead_id: string }>(
    database.db,
    sql`select a.id, a.lead_id from appointments a join leads l on l.id = a.lead_id where l.email = ${email}`,
  );
  return { email, token: lead.body.booking_token, start, leadId: row!.lead_id, appointmentId: row!.id };
}

const statusOf = async (b: Booked) =>
  (
    await rowsOf<{ status: string; cancelled_by: string | null }>(
      database.db,
      sql`select status, cancelled_by from appointments where id = ${b.appointmentId}`,
    )
  )[0];
const mailsTo = (b: Booked) =>
  rowsOf<{ kind: string; change: string | null }>(
    database.db,
    sql`select kind, data->>'change' as change from emails where to_address = ${b.email} order by created_at, id`,
  );
const staffMails = async () =>
  (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from emails where to_address = 'desk@example.com'`))[0]!.n;
const leadOf = async (b: Booked) => (await admin<LeadDetail>('GET', `/api/leads/${b.leadId}`)).body;

describe('where a website booking came from', () => {
  it('keeps the client network (IPv4 /24, IPv6 /64), hidden from the public; forgets it 30 days after the call or when the person is erased', async () => {
    const v4 = await bookFrom('203.0.113.7', 'Four', 0);
    const v6 = await bookFrom('2001:db8:aa:1:ffff::9', 'Six', 1);
    const rows = await rowsOf<{ id: string; booked_network: string | null }>(database.db, sql`select id, booked_network from appointments`);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.booked_network]))).toEqual({
      [v4.appointmentId]: '203.0.113.0/24',
      [v6.appointmentId]: '2001:db8:aa:1::/64',
    });
    // The public never sees it.
    expect(JSON.stringify((await call('GET', `/api/public/bookings/${v4.token}`)).body)).not.toContain('203.0.113');

    expect(await forgetOldBookingNetworks(database.db)).toBe(0);
    await execute(database.db, sql`update appointments set date = current_date - 31 where id = ${v4.appointmentId}`);
    await execute(database.db, sql`update appointments set date = current_date - 29 where id = ${v6.appointmentId}`);
    expect(await forgetOldBookingNetworks(database.db)).toBe(1);
    const after = await rowsOf<{ id: string; booked_network: string | null }>(
      database.db,
      sql`select id, booked_network from appointments`,
    );
    expect(Object.fromEntries(after.map((r) => [r.id, r.booked_network]))).toEqual({
      [v4.appointmentId]: null,
      [v6.appointmentId]: '2001:db8:aa:1::/64',
    });

    // It is the person's own data: in their export, and gone when they are erased.
    const exported = await admin<{ appointments: { id: string; booked_network: string | null }[] }>(
      'GET',
      `/api/leads/${v6.leadId}/export`,
    );
    expect(exported.body.appointments).toEqual([expect.objectContaining({ id: v6.appointmentId, booked_network: '2001:db8:aa:1::/64' })]);
    expect((await admin('POST', `/api/leads/${v6.leadId}/erase`)).status).toBe(200);
    const erased = await rowsOf<{ lead_id: string | null; booked_network: string | null }>(
      database.db,
      sql`select lead_id, booked_network from appointments where id = ${v6.appointmentId}`,
    );
    expect(erased).toEqual([{ lead_id: null, booked_network: null }]);
  });
});

describe('POST /api/appointments/bulk-cancel', () => {
  it('by network: cancels exactly the upcoming website calls of that /24, keeps and marks their leads, emails nobody, frees the times', async () => {
    const flood = [
      await bookFrom('203.0.113.7', 'Bot One', 0),
      await bookFrom('203.0.113.200', 'Bot Two', 1),
      await bookFrom('203.0.113.7', 'Bot Three', 2),
    ];
    const neighbour = await bookFrom('203.0.114.7', 'Neighbour', 3);
    const person = await bookFrom('2001:db8:aa:1::1', 'Person', 4);
    // A past call from the same network is left alone.
    const past = await bookFrom('203.0.113.9', 'Past Bot', 5);
    await execute(database.db, sql`update appointments set date = ${day(-3)}::date where id = ${past.appointmentId}`);
    const mailsBefore = await Promise.all(flood.map(mailsTo));
    const staffBefore = await staffMails();
    const freed = flood.map((b) => b.start);
    expect(await openSlots()).not.toEqual(expect.arrayContaining([freed[0]]));

    // The dialog's list and preview.
    const networks = await admin<WebsiteNetworksResponse>('GET', '/api/appointments/website-networks');
    expect(networks.status).toBe(200);
    expect(networks.body.networks.map((n) => [n.network, n.upcoming])).toEqual([
      ['203.0.113.0/24', 3],
      ['2001:db8:aa:1::/64', 1],
      ['203.0.114.0/24', 1],
    ]);
    const preview = await bulkCancel({ network: '203.0.113.42', notify: false, dry_run: true });
    expect(preview).toEqual({ status: 200, body: { count: 3, dry_run: true, network: '203.0.113.0/24' } });
    expect(
      (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from appointments where status = 'cancelled'`))[0]!.n,
    ).toBe(0);

    const res = await bulkCancel({ network: '203.0.113.0/24', notify: false });
    expect(res).toEqual({ status: 200, body: { count: 3, dry_run: false, network: '203.0.113.0/24' } });
    for (const b of flood) expect(await statusOf(b)).toEqual({ status: 'cancelled', cancelled_by: 'staff' });
    for (const b of [neighbour, person, past]) expect((await statusOf(b))?.status).toBe('scheduled');

    // The leads are kept and marked; the timeline says why.
    for (const b of flood) {
      const lead = await leadOf(b);
      expect(lead.suspected_abuse_at).toEqual(expect.any(String));
      const timeline = await admin<TimelineResponse>('GET', `/api/leads/${b.leadId}/timeline`);
      expect(timeline.body.entries).toContainEqual(
        expect.objectContaining({ kind: 'appointment', action: 'cancelled', by: 'staff', reason: 'suspected_abuse', actor: 'Dee Desk' }),
      );
    }
    expect((await leadOf(neighbour)).suspected_abuse_at).toBeNull();
    expect((await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from leads`))[0]!.n).toBe(6);

    // No mail to those addresses, and no copies for staff.
    expect(await Promise.all(flood.map(mailsTo))).toEqual(mailsBefore);
    expect(await staffMails()).toBe(staffBefore);

    // The times are open again, and the cancelled links cannot take them back.
    expect(await openSlots()).toEqual(expect.arrayContaining(freed));
    const rebook = await call<ErrorResponse>(
      'POST',
      '/api/public/bookings',
      { booking_token: flood[0]!.token, start: freed[0], type: 'Call' },
      { 'x-forwarded-for': '203.0.113.7' },
    );
    expect(rebook.status).toBe(404);

    // One audit entry with the count and the criteria.
    const audit = await admin<AuditPage>('GET', '/api/audit?action=appointments_bulk_cancelled');
    expect(audit.body.entries).toEqual([
      expect.objectContaining({
        actor_email: 'desk@example.com',
        target_type: 'appointment',
        details: { count: 3, network: '203.0.113.0/24', booked_from: null, booked_to: null, notify: false },
      }),
    ]);
    // Nothing left to cancel.
    expect((await bulkCancel({ network: '203.0.113.0/24', notify: false })).body.count).toBe(0);
  });

  it('by time window (and an IPv6 /64): cancels what was booked then, and emails those people only when asked', async () => {
    const early = [await bookFrom('198.51.100.1', 'Early One', 0), await bookFrom('2001:db8:bb:1::1', 'Early Two', 1)];
    const late = await bookFrom('198.51.100.2', 'Late', 2);
    await execute(
      database.db,
      sql`update appointments set created_at = now() - interval '2 hours' where id in (${early[0]!.appointmentId}, ${early[1]!.appointmentId})`,
    );
    const staffBefore = await staffMails();
    const window = {
      booked_from: new Date(Date.now() - 3 * 3_600_000).toISOString(),
      booked_to: new Date(Date.now() - 3_600_000).toISOString(),
    };

    expect((await bulkCancel({ ...window, notify: true, dry_run: true })).body.count).toBe(2);
    // Both criteria: that window and that /64.
    expect((await bulkCancel({ ...window, network: '2001:db8:bb:1:ffff::1/64', notify: true, dry_run: true })).body).toEqual({
      count: 1,
      dry_run: true,
      network: '2001:db8:bb:1::/64',
    });

    const res = await bulkCancel({ ...window, notify: true });
    expect(res.body.count).toBe(2);
    for (const b of early) {
      expect((await statusOf(b))?.status).toBe('cancelled');
      expect((await mailsTo(b)).at(-1)).toEqual({ kind: 'appointment', change: 'cancelled' });
    }
    expect((await statusOf(late))?.status).toBe('scheduled');
    expect((await mailsTo(late)).filter((m) => m.change === 'cancelled')).toEqual([]);
    expect(await staffMails()).toBe(staffBefore);
  });

  it('refuses what names no bookings, a half window and a network it cannot read', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ notify: false }, 'network', 'Choose a network or a time window'],
      [{ network: '', notify: false }, 'network', 'Choose a network or a time window'],
      [{ booked_from: new Date().toISOString(), notify: false }, 'booked_to', 'Give both ends of the time window'],
      [
        { booked_from: new Date().toISOString(), booked_to: new Date(Date.now() - 60_000).toISOString(), notify: false },
        'booked_to',
        'The window must end after it starts',
      ],
      [{ network: 'example.com', notify: false }, 'network', 'Enter an IP address or a network like 203.0.113.0/24'],
      [{ network: '203.0.113.0/16', notify: false }, 'network', 'Enter an IP address or a network like 203.0.113.0/24'],
      [{ network: '203.0.113.0/24' }, 'notify', 'Say whether to email them'],
    ];
    for (const [body, field, message] of cases) {
      const res = await bulkCancel(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.fields?.[field], JSON.stringify(body)).toBe(message);
    }
    expect(
      (
        await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from audit_log where action = 'appointments_bulk_cancelled'`)
      )[0]!.n,
    ).toBe(0);
  });
});
