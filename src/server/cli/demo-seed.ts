import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { execute, queryRows } from '../db/sql.ts';
import { rebuildAnalyticsRollups } from '../db/queries/analytics-events.ts';
import { createLead } from '../db/queries/leads.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { demoAppointments, demoLeads, demoPages } from './demo-data.ts';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-password';

/** Today's date in the business time zone, as UTC midnight (appointment dates are wall-clock). */
function businessToday(timeZone: string): Date {
  const ymd = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return new Date(`${ymd}T00:00:00Z`);
}

/** Fills the database with demo content; a second run adds nothing. Returns the report. */
export async function seedDemo(db: Db, config: Pick<Config, 'businessTimeZone'>): Promise<string> {
  const admin = await ensureAdmin(db, DEMO_EMAIL, DEMO_PASSWORD);

  let leadsAdded = 0;
  for (const lead of demoLeads()) {
    const { id, created } = await createLead(db, lead);
    if (!created || !id) continue;
    leadsAdded++;
    const contacted = lead.status !== 'New';
    await execute(db, sql`
      update leads set status = ${lead.status},
        created_at = now() - make_interval(days => ${lead.daysAgo}) - make_interval(hours => ${lead.hour})
      where id = ${id}`);
    // The history the dashboard shows: created New, contacted a few hours later, then the rest.
    await execute(db, sql`update lead_status_changes set changed_at = l.created_at from leads l where l.id = ${id} and lead_id = l.id`);
    if (contacted) {
      await execute(db, sql`
        insert into lead_status_changes (lead_id, from_status, to_status, changed_by, changed_at)
        select l.id, 'New', 'Contacted', ${admin.user.id}, least(now(), l.created_at + make_interval(mins => ${30 + lead.hour * 17}))
        from leads l where l.id = ${id}`);
      if (lead.status !== 'Contacted') {
        await execute(db, sql`
          insert into lead_status_changes (lead_id, from_status, to_status, changed_by, changed_at)
          select l.id, 'Contacted', ${lead.status}, ${admin.user.id}, least(now(), l.created_at + interval '2 days')
          from leads l where l.id = ${id}`);
      }
      await seedWorkspace(db, id, admin.user.id, leadsAdded, lead.status);
    }
  }

  const leadIds = (
    await queryRows(db, sql`select id from leads where submission_id is not null order by created_at desc limit 20`, z.object({ id: z.uuid() }))
  ).map((r) => r.id);
  let appointmentsAdded = 0;
  if (leadIds.length > 0) {
    for (const a of demoAppointments(leadIds, businessToday(config.businessTimeZone))) {
      // Demo leads are not people: no email reminder (lead_reminder_sent_at set), as no email at all.
      // Over a real booking at the same time it still goes in (overlap allowed), like staff choosing to.
      appointmentsAdded += await execute(db, sql`
        insert into appointments (id, lead_id, date, time, type, notes, lead_reminder_sent_at, overlap_allowed)
        values (${a.id}, ${a.lead_id}, ${a.date}, ${a.time}, ${a.type}, ${a.notes}, now(), true)
        on conflict (id) do nothing`);
    }
  }

  const eventsAdded = await seedAnalytics(db);
  if (eventsAdded > 0) await rebuildAnalyticsRollups(db);

  return (
    [
      `Demo data: ${leadsAdded} leads, ${appointmentsAdded} appointments, ${eventsAdded} analytics events added` +
        (leadsAdded + appointmentsAdded + eventsAdded === 0 ? ' (already seeded)' : '') + '.',
      admin.created
        ? `Demo admin created: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`
        : `Demo admin: ${DEMO_EMAIL} (already existed; password unchanged)`,
      'These are public demo credentials: do not seed a server that others can reach.',
    ].join('\n') + '\n'
  );
}

const DEMO_STREETS = ['Elm St', 'Harbor Way', 'N Charles St', 'Market St', 'Greenmount Ave', 'Eastern Ave', 'Light St', 'Fleet St'];
const DEMO_NOTES = [
  'Called: wants a Phase I before the inspection period ends.\nSent our fee sheet.',
  'Spoke with their lender; title search first, zoning letter after.',
  'Left a voicemail. Will try again Thursday.',
  'Walked the site with them. See https://example.com/site-photos for the photos.',
];

/** A worked lead: an owner, the deal's address and fee, a note, and for some a next step around today. */
async function seedWorkspace(db: Db, id: string, adminId: string, n: number, status: string): Promise<void> {
  const followUp = status === 'Contacted' && n % 2 === 0 ? (n % 4 === 0 ? -1 : 2) : null;
  await execute(db, sql`
    update leads set owner_id = ${adminId},
      property_address = ${`${100 + n * 7} ${DEMO_STREETS[n % DEMO_STREETS.length]}, Baltimore, MD`},
      estimated_fee_cents = ${status === 'Dropped' ? null : (1500 + (n % 7) * 850) * 100},
      target_closing_date = current_date + ${20 + (n % 5) * 9}::int,
      follow_up_on = case when ${followUp}::int is null then null else current_date + ${followUp ?? 0}::int end,
      follow_up_note = case when ${followUp}::int is null then null else 'Send the zoning report' end
    where id = ${id}`);
  await execute(db, sql`
    insert into lead_notes (lead_id, author_id, body, created_at, updated_at)
    select l.id, ${adminId}, ${DEMO_NOTES[n % DEMO_NOTES.length]!}, least(now(), l.created_at + interval '3 hours'), least(now(), l.created_at + interval '3 hours')
    from leads l where l.id = ${id}`);
}

/** 30 days of visits, made in SQL: sessions with page views, heartbeats and time spent. */
async function seedAnalytics(db: Db): Promise<number> {
  const [existing] = await queryRows(
    db,
    sql`select count(*)::int as n from analytics_events where session_id like 'demo-%'`,
    z.object({ n: z.number().int() }),
  );
  if ((existing?.n ?? 0) > 0) return 0;
  const pages = `{${demoPages.join(',')}}`;
  return execute(db, sql`
    with sessions as (
      select s, now() - (random() * interval '30 days') as started,
             (array['https://www.google.com/', '', 'https://www.linkedin.com/', 'https://www.biggerpockets.com/'])[1 + floor(random() * 4)::int] as referrer
      from generate_series(1, 1200) as s
    ), views as (
      select sessions.*, v, (${pages}::text[])[1 + floor(random() * ${demoPages.length})::int] as page,
             15 + floor(random() * 170)::int as seconds
      from sessions, generate_series(1, 1 + floor(random() * 3)::int) as v
    )
    insert into analytics_events (session_id, page_path, event_type, time_spent, user_agent, referrer, referrer_host, device, created_at)
    select 'demo-' || s, page, kind, case when kind = 'pageview' then null else seconds end,
           'Mozilla/5.0 (demo)', nullif(referrer, ''),
           case when kind = 'pageview' then coalesce(substring(nullif(referrer, '') from '^https?://(?:www\.)?([^/:]+)'), 'Direct') end,
           (array['desktop', 'desktop', 'mobile', 'tablet'])[1 + s % 4],
           started + (v * interval '3 minutes') + case when kind = 'pageview' then interval '0' else make_interval(secs => seconds) end
    from views, unnest(array['pageview', 'time_spent']) as kind`);
}
