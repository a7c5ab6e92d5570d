import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Appointment } from '#shared/schemas/appointment';
import type { Lead, LeadDetail } from '#shared/schemas/lead';
import type { DuplicatesResponse, LeadExport } from '#shared/schemas/lead-privacy';
import { addDays, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { BROWSER_AGENT } from '../test/person.ts';

const TZ = 'America/New_York';
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
let adminId: string;
let otherAdminId: string;

beforeAll(() => {
  t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, booking_tokens, notifications, emails, rate_limits,
    analytics_events, analytics_hourly, analytics_sessions, analytics_hourly_sources cascade`,
  );
  adminId = (await ensureAdmin(database.db, 'merger@example.com', 'merger-password', 'owner', 'Mia Merger')).user.id;
  otherAdminId = (await ensureAdmin(database.db, 'owner@example.com', 'owner-password')).user.id;
  cookie = await signIn(t.json, 'merger@example.com', 'merger-password');
});

async function api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = { cookie }) {
  const res = await t.json(method, path, body, headers);
  return { status: res.status, body: (await res.json()) as T };
}
const day = (n: number) => addDays(zonedParts(Date.now(), TZ).date, n);
const count = async (query: ReturnType<typeof sql>) => (await rowsOf<{ n: number }>(database.db, query))[0]!.n;
const SESSION = 'MergeVisitSession00001';

/**
 * A legacy pair: the same person came through the public form (with a visit), then staff typed
 * them in again before the form joined known emails to their lead. Each has its own history.
 */
async function duplicates() {
  await t.json(
    'POST',
    '/api/public/events',
    { session_id: SESSION, event_type: 'pageview', page_path: '/' },
    { 'user-agent': BROWSER_AGENT },
  );
  expect(
    (
      await t.json(
        'POST',
        '/api/public/leads',
        validLead({
          full_name: 'Sam Same',
          email: 'sam@example.com',
          phone: '555-0001',
          message: 'From the form',
          analytics_session_id: SESSION,
        }),
      )
    ).status,
  ).toBe(201);
  // The earlier lead was made before the dedupe: a month ago.
  const [formLead] = await rowsOf<{ id: string; submission_id: string; created_at: string }>(
    database.db,
    sql`update leads set created_at = now() - interval '30 days' where email = 'sam@example.com' returning id, submission_id, created_at::text as created_at`,
  );
  const typed = (
    await api<Lead>('POST', '/api/leads', {
      full_name: 'Samuel Same',
      email: 'sam@example.com',
      phone: '555-0002',
      property_types: ['commercial'],
      property_address: '1 Typed St',
    })
  ).body;
  await api('PATCH', `/api/leads/${formLead!.id}`, {
    status: 'Converted',
    owner_id: otherAdminId,
    estimated_fee_cents: 90_000,
    follow_up_on: day(9),
    follow_up_note: 'Send the report',
  });
  await api('PATCH', `/api/leads/${typed.id}`, { status: 'Contacted' });
  await execute(
    database.db,
    sql`insert into lead_notes (lead_id, author_id, body) values (${formLead!.id}, ${adminId}, 'Note on the form lead')`,
  );
  const appointment = (
    await api<Appointment>('POST', '/api/appointments', { lead_id: formLead!.id, date: day(5), time: '14:00', type: 'Call' })
  ).body;
  const unrelated = (
    await api<Lead>('POST', '/api/leads', { full_name: 'Pat Else', email: 'pat@example.com', phone: '555-0003', property_types: ['land'] })
  ).body;
  return { form: formLead!, typed, appointment, unrelated };
}

describe('GET /api/leads/{id}/duplicates', () => {
  it('lists the other leads with the same email, and none for a lead without', async () => {
    const { form, typed, unrelated } = await duplicates();
    expect((await api<DuplicatesResponse>('GET', `/api/leads/${typed.id}/duplicates`)).body.leads.map((l) => l.id)).toEqual([form.id]);
    expect((await api<DuplicatesResponse>('GET', `/api/leads/${form.id}/duplicates`)).body.leads.map((l) => l.id)).toEqual([typed.id]);
    expect((await api<DuplicatesResponse>('GET', `/api/leads/${unrelated.id}/duplicates`)).body).toEqual({ leads: [] });
    expect((await api('GET', '/api/leads/00000000-0000-4000-8000-000000000000/duplicates')).status).toBe(404);
    expect((await api('GET', `/api/leads/${typed.id}/duplicates`, undefined, {})).status).toBe(401);
  });
});

describe('POST /api/leads/{id}/merge', () => {
  it('moves everything of the other lead here, keeps the fields chosen, records the merge and deletes the other', async () => {
    const { form, typed, appointment } = await duplicates();
    // This lead has a later task of its own: both are kept, and the earlier one is the next step.
    expect(
      (await api('POST', `/api/leads/${typed.id}/tasks`, { type: 'call', title: 'Later call', due_at: `${day(12)}T15:00:00Z` })).status,
    ).toBe(201);
    const owned = (id: string) =>
      Promise.all(
        ['lead_events', 'lead_notes', 'lead_status_changes', 'appointments', 'emails', 'booking_tokens', 'notifications'].map(
          async (table) =>
            [table, await count(sql`select count(*)::int as n from ${sql.identifier(table)} where lead_id = ${id}`)] as const,
        ),
      );
    const before = [await owned(typed.id), await owned(form.id)];
    expect(Object.fromEntries(before[1]!)).toMatchObject({ lead_notes: 1, appointments: 1, booking_tokens: 1 });

    const res = await api<LeadDetail>('POST', `/api/leads/${typed.id}/merge`, {
      other_id: form.id,
      keep: {
        full_name: 'other',
        status: 'other',
        owner_id: 'other',
        estimated_fee_cents: 'other',
        phone: 'this',
        property_address: 'this',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: typed.id,
      full_name: 'Sam Same',
      phone: '555-0002',
      property_types: ['commercial'],
      status: 'Converted',
      owner_id: otherAdminId,
      property_address: '1 Typed St',
      estimated_fee_cents: 90_000,
      follow_up_on: day(9),
      follow_up_note: 'Send the report',
    });
    expect((await api('GET', `/api/leads/${form.id}`)).status).toBe(404);
    const kept = await api<{ tasks: { title: string | null }[] }>('GET', `/api/leads/${typed.id}/tasks`);
    expect(kept.body.tasks.map((task) => task.title)).toEqual(['Send the report', 'Later call']);

    // Everything the other lead owned is here now (plus the merge's own entries).
    const after = Object.fromEntries(await owned(typed.id));
    for (const [table, n] of before[0]!) {
      // The merge's inquiry and merged entries, the kept owner; the kept status.
      const extra = table === 'lead_events' ? 3 : table === 'lead_status_changes' ? 1 : 0;
      expect({ table, n: after[table] }).toEqual({ table, n: n + Object.fromEntries(before[1]!)[table]! + extra });
    }
    expect((await api<Appointment>('GET', `/api/appointments/${appointment.id}`)).body.lead).toMatchObject({ full_name: 'Sam Same' });
    // The appointment's move wrote no new timeline entry (the trigger ignores a change of lead).
    expect(await count(sql`select count(*)::int as n from lead_events where kind = 'appointment'`)).toBe(1);

    const events = await rowsOf<{
      kind: string;
      actor_id: string | null;
      data: Record<string, unknown>;
      created_at: string;
      submission_id: string | null;
    }>(
      database.db,
      sql`select kind, actor_id, data, created_at::text as created_at, submission_id from lead_events where lead_id = ${typed.id} and kind in ('inquiry', 'merged') order by kind`,
    );
    expect(events).toEqual([
      {
        kind: 'inquiry',
        actor_id: null,
        created_at: form.created_at,
        submission_id: form.submission_id,
        data: {
          message: 'From the form',
          full_name: 'Sam Same',
          email: 'sam@example.com',
          phone: '555-0001',
          property_types: ['multifamily'],
          analytics_session_id: SESSION,
          source: 'Direct',
          landing_page: '/',
          pages_viewed: 1,
        },
      },
      {
        kind: 'merged',
        actor_id: adminId,
        created_at: expect.any(String),
        submission_id: null,
        data: { full_name: 'Sam Same', email: 'sam@example.com' },
      },
    ]);
    // The kept status is recorded as a change by the admin who merged.
    expect(res.body.status_history.at(-1)).toMatchObject({ from_status: 'Contacted', to_status: 'Converted', changed_by: 'Mia Merger' });

    // The other lead's visit is now this person's: in their export.
    const exported = (await api<LeadExport>('GET', `/api/leads/${typed.id}/export`)).body;
    expect(exported.visits.session_ids).toEqual([SESSION]);
    expect(exported.visits.events).toHaveLength(1);

    // A retry of the other lead's submission is still recognised: no new lead.
    const leads = await count(sql`select count(*)::int as n from leads`);
    expect(
      (await t.json('POST', '/api/public/leads', validLead({ email: 'sam@example.com', submission_id: form.submission_id }))).status,
    ).toBe(201);
    expect(await count(sql`select count(*)::int as n from leads`)).toBe(leads);
    expect(await count(sql`select count(*)::int as n from lead_events where kind = 'inquiry'`)).toBe(1);
  });

  it('keeps this lead’s values for every field not chosen, and changes nothing it need not', async () => {
    const { form, typed } = await duplicates();
    const res = await api<LeadDetail>('POST', `/api/leads/${typed.id}/merge`, { other_id: form.id, keep: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      full_name: 'Samuel Same',
      phone: '555-0002',
      status: 'Contacted',
      owner_id: null,
      estimated_fee_cents: null,
      // The other's tasks are kept whatever is chosen: its next step is this lead's now.
      follow_up_on: day(9),
      follow_up_note: 'Send the report',
    });
    // Only the other lead's own owner and next-step entries, moved here: none for values not taken.
    expect(await count(sql`select count(*)::int as n from lead_events where lead_id = ${typed.id} and kind = 'owner'`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from lead_events where lead_id = ${typed.id} and kind = 'follow_up'`)).toBe(1);
    expect(res.body.status_history.filter((c) => c.to_status === 'Converted')).toHaveLength(1);
  });

  it('refuses leads of different emails, a lead with itself and bad choices (400), and unknown leads (404); nothing changes', async () => {
    const { form, typed, unrelated } = await duplicates();
    const refused = await api<{ error: { message: string } }>('POST', `/api/leads/${typed.id}/merge`, { other_id: unrelated.id, keep: {} });
    expect(refused).toMatchObject({ status: 400, body: { error: { message: 'Only leads with the same email can be merged.' } } });
    expect((await api('POST', `/api/leads/${typed.id}/merge`, { other_id: typed.id, keep: {} })).status).toBe(400);
    expect((await api('POST', `/api/leads/${typed.id}/merge`, { other_id: form.id, keep: { full_name: 'both' } })).status).toBe(400);
    expect((await api('POST', `/api/leads/${typed.id}/merge`, { other_id: form.id, keep: { message: 'other' } })).status).toBe(400);
    expect((await api('POST', `/api/leads/${typed.id}/merge`, { keep: {} })).status).toBe(400);
    expect((await api('POST', `/api/leads/${typed.id}/merge`, { other_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await api('POST', `/api/leads/00000000-0000-4000-8000-000000000000/merge`, { other_id: form.id })).status).toBe(404);
    expect((await api('POST', `/api/leads/${typed.id}/merge`, { other_id: form.id }, {})).status).toBe(401);
    expect(await count(sql`select count(*)::int as n from leads`)).toBe(3);
    expect(await count(sql`select count(*)::int as n from lead_events where kind = 'merged'`)).toBe(0);
  });
});
