import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Lead } from '#shared/schemas/lead';
import type { Overview } from '#shared/schemas/overview';
import { execute } from '../db/sql.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

const database = useTestDatabase();

const TZ = 'America/New_York';
/** An appointment at now + offset, written as wall-clock date and time in the business zone. */
const appointmentAt = (offset: string, leadId: string | null, type = 'Call', notes: string | null = null) =>
  execute(
    database.db,
    sql`
    insert into appointments (lead_id, date, time, type, notes)
    select ${leadId}, local::date, local::time, ${type}, ${notes}
    from (select date_trunc('minute', (now() + ${offset}::interval) at time zone ${TZ}) as local) x`,
  );

describe('GET /api/overview', () => {
  it('counts in SQL and lists the 5 newest leads and the next 5 appointments within 7 days', async () => {
    const t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
    await ensureAdmin(database.db, 'boss@example.com', 'boss-password');
    const cookie = await signIn(t.json, 'boss@example.com', 'boss-password');
    const add = async (name: string) =>
      (await (
        await t.json(
          'POST',
          '/api/leads',
          { full_name: name, email: `${name.toLowerCase()}@x.test`, phone: '1', property_types: ['land'] },
          { cookie },
        )
      ).json()) as Lead;
    const leads: Lead[] = [];
    for (const name of ['One', 'Two', 'Three', 'Four', 'Five', 'Six']) leads.push(await add(name));
    await t.json('PATCH', `/api/leads/${leads[0]!.id}`, { contacted: true }, { cookie });
    // Backdate lead One by 2 hours, so its time to Contacted is about 2 hours.
    await execute(database.db, sql`update leads set created_at = created_at - interval '2 hours' where id = ${leads[0]!.id}`);

    await appointmentAt('-1 hour', leads[1]!.id); // past: not upcoming
    for (let i = 1; i <= 6; i++) await appointmentAt(`${i} days`, leads[i % 6]!.id, 'Zoom', `note ${i}`);
    await appointmentAt('2 hours', null, 'On-site'); // its lead was deleted
    await appointmentAt('8 days', leads[2]!.id); // beyond the window

    const res = await t.app.request('/api/overview', { headers: { cookie } });
    expect(res.status).toBe(200);
    const o = (await res.json()) as Overview;
    expect(o).toMatchObject({ total_leads: 6, total_appointments: 9, new_leads: 5, upcoming_appointments: 7 });
    expect(o.recent_leads.map((l) => l.full_name)).toEqual(['Six', 'Five', 'Four', 'Three', 'Two']);
    expect(o.upcoming).toHaveLength(5);
    expect(o.upcoming[0]).toMatchObject({ type: 'On-site', lead: null, notes: null });
    expect(o.upcoming[1]).toMatchObject({ type: 'Zoom', notes: 'note 1', lead: { full_name: 'Two' } });
    expect(o.upcoming[1]!.date).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(o.upcoming[1]!.time).toMatch(/^\d\d:\d\d$/);
    expect(o.median_seconds_to_contacted).toBeGreaterThan(2 * 3600 - 60);
    expect(o.median_seconds_to_contacted).toBeLessThan(2 * 3600 + 60);
    expect(o.no_shows_30_days).toBe(0);

    // The past call marked no-show (through the API, as the Appointments page does): counted, and on the lead's timeline.
    const [past] = await rowsOf<{ id: string }>(
      database.db,
      sql`select id from appointments where lead_id = ${leads[1]!.id} order by date, time limit 1`,
    );
    expect((await t.json('PATCH', `/api/appointments/${past!.id}`, { status: 'no_show' }, { cookie })).status).toBe(200);
    const after = (await (await t.app.request('/api/overview', { headers: { cookie } })).json()) as Overview;
    expect(after).toMatchObject({ no_shows_30_days: 1, upcoming_appointments: 7 });
    const timeline = (await (await t.json('GET', `/api/leads/${leads[1]!.id}/timeline`, undefined, { cookie })).json()) as {
      entries: { kind: string; action?: string; actor: string | null }[];
    };
    expect(timeline.entries.find((e) => e.kind === 'appointment' && e.action === 'no_show')).toBeDefined();
  });
});
