import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { execute, pgArray, queryRows } from '../db/sql.ts';
import { rebuildAnalyticsRollups } from '../db/queries/analytics-events-queries.ts';
import { nextStepSets } from '../db/queries/lead-tasks-queries.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { DEMO_SESSION_PREFIX, demoStory, type DemoEvent } from './demo-data.ts';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-password';
/** The demo admin's name: the owner of the worked leads, the author of the notes, the staff on the timelines. */
export const DEMO_NAME = 'Dana Whitaker';

/** Rows per insert statement: each column travels as one array parameter. */
const CHUNK = 5000;

const iso = (ms: number) => new Date(ms).toISOString();
const arr = <T>(rows: readonly T[], pick: (row: T) => string | number | boolean | null) =>
  pgArray(
    rows.map((r) => {
      const v = pick(r);
      return typeof v === 'boolean' ? String(v) : v;
    }),
  );

/**
 * Fills the database with demo content: ~120 days of website visits, the leads they sent
 * (with their visit's first touch) and a few staff entered, worked into calls, clients and
 * dropped leads, with the analytics rollups rebuilt from the raw events. A second run adds
 * nothing. Returns the report.
 */
export async function seedDemo(db: Db, config: Pick<Config, 'businessTimeZone'>): Promise<string> {
  const admin = await ensureAdmin(db, DEMO_EMAIL, DEMO_PASSWORD, 'owner', DEMO_NAME);
  const adminId = admin.user.id;

  const [existing] = await queryRows(
    db,
    sql`select exists (select 1 from analytics_events where session_id like ${`${DEMO_SESSION_PREFIX}%`}) as seeded`,
    z.object({ seeded: z.boolean() }),
  );
  let leadsAdded = 0;
  let appointmentsAdded = 0;
  let eventsAdded = 0;
  if (!existing?.seeded) {
    const now = Date.now();
    const story = demoStory(now, config.businessTimeZone);

    // The visits first, then the leads they sent, then the rollups (which give leads their visit's hour).
    for (let i = 0; i < story.events.length; i += CHUNK) eventsAdded += await insertEvents(db, story.events.slice(i, i + CHUNK));

    const l = story.leads;
    const inserted = new Set(
      (
        await queryRows(
          db,
          sql`
          insert into leads (id, created_at, updated_at, status, full_name, email, phone, property_types, message, submission_id,
            analytics_session_id, source, utm_source, utm_medium, utm_campaign, landing_page, pages_viewed,
            owner_id, property_address, target_closing_date, estimated_fee_cents, follow_up_on, follow_up_note)
          select id, created_at, greatest(created_at, changed_at), status, full_name, email, phone, string_to_array(types, ','), message, submission_id,
            session_id, source, utm_source, utm_medium, utm_campaign, landing_page, pages_viewed,
            case when owned then ${adminId}::uuid end, property_address, crm_now()::date + closing_in, fee, crm_now()::date + follow_up_in, follow_up_note
          from unnest(${arr(l, (r) => r.id)}::uuid[], ${arr(l, (r) => iso(r.created_at))}::timestamptz[], ${arr(l, (r) => iso(r.history.at(-1)!.at))}::timestamptz[],
            ${arr(l, (r) => r.status)}::text[], ${arr(l, (r) => r.full_name)}::text[], ${arr(l, (r) => r.email)}::text[], ${arr(l, (r) => r.phone)}::text[],
            ${arr(l, (r) => r.property_types.join(','))}::text[], ${arr(l, (r) => r.message)}::text[], ${arr(l, (r) => r.submission_id)}::uuid[],
            ${arr(l, (r) => r.analytics_session_id)}::text[], ${arr(l, (r) => r.source)}::text[], ${arr(l, (r) => r.utm_source)}::text[],
            ${arr(l, (r) => r.utm_medium)}::text[], ${arr(l, (r) => r.utm_campaign)}::text[], ${arr(l, (r) => r.landing_page)}::text[],
            ${arr(l, (r) => r.pages_viewed)}::int[], ${arr(l, (r) => r.owned)}::boolean[], ${arr(l, (r) => r.property_address)}::text[],
            ${arr(l, (r) => r.target_closing_in)}::int[], ${arr(l, (r) => r.estimated_fee_cents)}::bigint[], ${arr(l, (r) => r.follow_up_in)}::int[],
            ${arr(l, (r) => r.follow_up_note)}::text[])
            as t(id, created_at, changed_at, status, full_name, email, phone, types, message, submission_id, session_id, source, utm_source,
                 utm_medium, utm_campaign, landing_page, pages_viewed, owned, property_address, closing_in, fee, follow_up_in, follow_up_note)
          on conflict do nothing
          returning id`,
          z.object({ id: z.uuid() }),
        )
      ).map((r) => r.id),
    );
    const leads = l.filter((r) => inserted.has(r.id));
    leadsAdded = leads.length;

    if (leads.length > 0) {
      // Each lead's history (New, Contacted, then won or dropped), the admins' "new lead"
      // notifications (read, but for the last two days'), and a note on the worked ones.
      const changes = leads.flatMap((r) => r.history.map((c) => ({ ...c, lead: r.id })));
      await execute(
        db,
        sql`
        insert into lead_status_changes (lead_id, from_status, to_status, changed_by, changed_at)
        select lead_id, from_status, to_status, case when by_staff then ${adminId}::uuid end, changed_at
        from unnest(${arr(changes, (c) => c.lead)}::uuid[], ${arr(changes, (c) => c.from)}::text[], ${arr(changes, (c) => c.to)}::text[],
          ${arr(changes, (c) => c.byStaff)}::boolean[], ${arr(changes, (c) => iso(c.at))}::timestamptz[]) as t(lead_id, from_status, to_status, by_staff, changed_at)`,
      );
      await execute(
        db,
        sql`
        insert into notifications (user_id, type, message, lead_id, read, created_at)
        select u.id, 'lead', 'New lead: ' || l.full_name || ' (' || l.email || ')', l.id, l.created_at < crm_now() - interval '2 days', l.created_at
        from leads l cross join users u where l.id = any(${arr(leads, (r) => r.id)}::uuid[])`,
      );
      // Their places in the pipeline: deals in progress spread over the Contacted stages, and
      // the lost ones lost for one of the firm's reasons (the status alone gives the first stage
      // and "Not given"). Deterministic: by each lead's id.
      await execute(
        db,
        sql`
        with contacted as (select id, row_number() over (order by position, id) - 1 as n, count(*) over () as k
                           from pipeline_stages where status = 'Contacted'),
             reasons as (select name, row_number() over (order by position, id) - 1 as n, count(*) over () as k from lost_reasons)
        update leads l set
          stage_id = case when l.status = 'Contacted'
            then (select c.id from contacted c where c.n = (hashtext(l.id::text)::bigint & 2147483647) % c.k) else l.stage_id end,
          lost_reason = case when l.status = 'Dropped'
            then coalesce((select r.name from reasons r where r.n = (hashtext(l.id::text)::bigint & 2147483647) % r.k), l.lost_reason) else l.lost_reason end
        where l.id = any(${arr(leads, (r) => r.id)}::uuid[]) and l.status in ('Contacted', 'Dropped')`,
      );
      // Stages were entered when the lead reached its status (the triggers said crm_now()).
      await execute(
        db,
        sql`
        with entered as (
          update leads l set stage_entered_at = coalesce((select max(c.changed_at) from lead_status_changes c where c.lead_id = l.id), l.created_at)
          where l.id = any(${arr(leads, (r) => r.id)}::uuid[])
          returning l.id, l.created_at, l.stage_entered_at
        )
        update lead_stage_changes s set changed_at = case when s.from_stage_id is null then e.created_at else e.stage_entered_at end
        from entered e where s.lead_id = e.id`,
      );
      // Next steps are tasks: each one a call or a to-do at 10:00 on its day for the lead's owner
      // (everyone, for a lead nobody owns); some worked leads also have an email already sent.
      await execute(
        db,
        sql`
        insert into lead_tasks (lead_id, type, title, due_at, assignee_id, created_by, created_at, notified_at)
        select l.id, case when hashtext(l.id::text) % 2 = 0 then 'call' else 'todo' end, l.follow_up_note,
          (l.follow_up_on + time '10:00') at time zone ${config.businessTimeZone}, l.owner_id, ${adminId}::uuid, l.updated_at,
          case when l.follow_up_on < crm_now()::date then crm_now() end
        from leads l where l.id = any(${arr(leads, (r) => r.id)}::uuid[]) and l.follow_up_on is not null`,
      );
      await execute(
        db,
        sql`
        insert into lead_tasks (lead_id, type, title, due_at, assignee_id, done_at, done_by, created_by, created_at, notified_at)
        select l.id, 'email', 'Send the engagement letter', l.created_at + interval '2 days', l.owner_id, l.created_at + interval '2 days',
          ${adminId}::uuid, ${adminId}::uuid, l.created_at, l.created_at + interval '2 days'
        from leads l where l.id = any(${arr(leads, (r) => r.id)}::uuid[]) and l.status in ('Contacted', 'Converted')
          and l.created_at < crm_now() - interval '3 days' and hashtext(l.id::text) % 3 = 0`,
      );
      await execute(
        db,
        sql`update leads l set ${nextStepSets(config.businessTimeZone)} where l.id = any(${arr(leads, (r) => r.id)}::uuid[])`,
      );
      const noted = leads.filter((r) => r.note);
      await execute(
        db,
        sql`
        insert into lead_notes (lead_id, author_id, body, created_at, updated_at)
        select lead_id, ${adminId}, body, at, at
        from unnest(${arr(noted, (r) => r.id)}::uuid[], ${arr(noted, (r) => r.note!.body)}::text[], ${arr(noted, (r) => iso(r.note!.at))}::timestamptz[])
          as t(lead_id, body, at)`,
      );

      // Calls: past ones completed, the rest coming, each with its lead's owner (else the demo
      // admin) as host. Demo leads are not people, so no email
      // reminder (lead_reminder_sent_at set); over a real booking at the same time they still
      // go in (overlap allowed), like staff choosing to.
      const a = story.appointments.filter((r) => inserted.has(r.lead_id));
      appointmentsAdded = await execute(
        db,
        sql`
        insert into appointments (id, lead_id, date, time, type, notes, status, source, location, created_at, changed_by,
          lead_reminder_sent_at, reminder_sent_at, overlap_allowed, host_id)
        select id, lead_id, date, time, type, notes, status, source, location, created_at, case when by_staff then ${adminId}::uuid end,
          crm_now(), case when status = 'completed' then (date + time) at time zone ${config.businessTimeZone} end, true,
          coalesce((select l.owner_id from leads l where l.id = t.lead_id), ${adminId}::uuid)
        from unnest(${arr(a, (r) => r.id)}::uuid[], ${arr(a, (r) => r.lead_id)}::uuid[], ${arr(a, (r) => r.date)}::date[], ${arr(a, (r) => r.time)}::time[],
          ${arr(a, (r) => r.type)}::text[], ${arr(a, (r) => r.notes)}::text[], ${arr(a, (r) => r.status)}::text[], ${arr(a, (r) => r.source)}::text[],
          ${arr(a, (r) => r.location)}::text[], ${arr(a, (r) => iso(r.created_at))}::timestamptz[], ${arr(a, (r) => r.byStaff)}::boolean[])
          as t(id, lead_id, date, time, type, notes, status, source, location, created_at, by_staff)
        on conflict (id) do nothing`,
      );
      // The timeline entries the appointments' trigger wrote: dated when the call was booked.
      await execute(
        db,
        sql`
        update lead_events e set created_at = a.created_at from appointments a
        where e.kind = 'appointment' and e.data->>'appointment_id' = a.id::text and a.id = any(${arr(a, (r) => r.id)}::uuid[])`,
      );
    }
    if (eventsAdded > 0) await rebuildAnalyticsRollups(db);
  }

  return (
    [
      `Demo data: ${leadsAdded} leads, ${appointmentsAdded} appointments, ${eventsAdded} analytics events added` +
        (leadsAdded + appointmentsAdded + eventsAdded === 0 ? ' (already seeded)' : '') +
        '.',
      admin.created
        ? `Demo admin created: ${DEMO_EMAIL} / ${DEMO_PASSWORD} (${DEMO_NAME})`
        : `Demo admin: ${DEMO_EMAIL} (already existed; password unchanged)`,
      'These are public demo credentials: do not seed a server that others can reach.',
    ].join('\n') + '\n'
  );
}

/** Raw events in time order (so ids follow time, as the tracker's do); the rollups are rebuilt after. */
async function insertEvents(db: Db, events: DemoEvent[]): Promise<number> {
  const e = (pick: (row: DemoEvent) => string | number | null) => arr(events, pick);
  return execute(
    db,
    sql`
    insert into analytics_events (session_id, page_path, event_type, time_spent, user_agent, referrer, utm_source, utm_medium, utm_campaign,
      referrer_host, device, created_at)
    select * from unnest(${e((r) => r.session_id)}::text[], ${e((r) => r.page_path)}::text[], ${e((r) => r.event_type)}::text[],
      ${e((r) => r.time_spent)}::int[], ${e((r) => r.user_agent)}::text[], ${e((r) => r.referrer)}::text[],
      ${e((r) => r.utm_source)}::text[], ${e((r) => r.utm_medium)}::text[], ${e((r) => r.utm_campaign)}::text[],
      ${e((r) => r.referrer_host)}::text[], ${e((r) => r.device)}::text[], ${e((r) => iso(r.at))}::timestamptz[])`,
  );
}
