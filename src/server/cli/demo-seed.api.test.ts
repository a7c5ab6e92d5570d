import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addDays, zonedParts } from '#shared/zoned-time';
import { parseUtmValue } from '#shared/schemas/analytics-report';
import { useTestDatabase, rowsOf } from '../test/database.ts';
import { getAnalyticsReport, getAnalyticsSources } from '../db/queries/analytics-report-queries.ts';
import { getAnalyticsSummary } from '../db/queries/analytics-summary-queries.ts';
import { DEMO_EMAIL, DEMO_NAME, seedDemo } from './demo-seed.ts';

const database = useTestDatabase();
const timeZone = 'America/New_York';

const counts = async () =>
  (
    await rowsOf<Record<string, number>>(
      database.db,
      sql`select (select count(*)::int from leads) as leads, (select count(*)::int from appointments) as appointments,
                 (select count(*)::int from notifications) as notifications, (select count(*)::int from analytics_events) as events,
                 (select count(*)::int from users) as users, (select count(*)::int from lead_status_changes) as changes,
                 (select count(*)::int from lead_notes) as notes, (select count(*)::int from lead_events) as lead_events,
                 (select count(*)::int from analytics_hourly_visits) as visits`,
    )
  )[0]!;

const lastDays = (days: number) => {
  const today = zonedParts(Date.now(), timeZone).date;
  return { from: addDays(today, -(days - 1)), to: today, timeZone };
};

describe('seedDemo', () => {
  it('fills every table, around today, and a second run duplicates nothing', async () => {
    const started = performance.now();
    const first = await seedDemo(database.db, { businessTimeZone: timeZone });
    const seconds = (performance.now() - started) / 1000;
    expect(first).toContain(`Demo admin created: ${DEMO_EMAIL} / `);
    // A person with a name: the owner, author and actor the demo's pages show.
    expect(await rowsOf(database.db, sql`select display_name from users`)).toEqual([{ display_name: DEMO_NAME }]);
    expect(seconds).toBeLessThan(15); // about 1.5-3 s on PGlite; a generous bound for a busy machine
    const after = await counts();
    expect(after.leads).toBeGreaterThanOrEqual(150);
    expect(after.leads).toBeLessThanOrEqual(250);
    expect(after.appointments).toBeGreaterThanOrEqual(40);
    expect(after.notifications).toBe(after.leads);
    expect(after.events).toBeGreaterThan(15_000);
    expect(after.events).toBeLessThan(35_000);
    expect(after.users).toBe(1);
    expect(after.notes).toBeGreaterThan(0);
    expect(after.lead_events).toBe(after.appointments);
    const [history] = await rowsOf<{ contacted: number }>(
      database.db,
      sql`select count(*)::int as contacted from lead_status_changes where to_status = 'Contacted'`,
    );
    expect(history!.contacted).toBeGreaterThan(100);
    // Deals in progress spread over the pipeline's Contacted stages; the lost ones lost for a reason of the list.
    const stages = await rowsOf<{ name: string; n: number }>(
      database.db,
      sql`select s.name, count(*)::int as n from leads l join pipeline_stages s on s.id = l.stage_id
          where l.status = 'Contacted' group by s.name order by s.name`,
    );
    expect(stages.map((s) => s.name)).toEqual(['Call booked', 'Engaged', 'Proposal sent']);
    const unlisted = await rowsOf(
      database.db,
      sql`select 1 from leads where status = 'Dropped' and lost_reason not in (select name from lost_reasons)`,
    );
    expect(unlisted).toEqual([]);
    // Next steps are open tasks (some done ones besides), each lead's next step its earliest; each stage
    // entered when its lead reached its status (its last status change, or its arrival), never at the
    // seed's own instant: a lead that arrived a moment ago may rightly have entered its stage then.
    const [tasks] = await rowsOf<{ open: number; done: number; stepped: number; mismatched: number; entered_at_other_times: number }>(
      database.db,
      sql`select (select count(*)::int from lead_tasks where done_at is null) as open,
        (select count(*)::int from lead_tasks where done_at is not null) as done,
        (select count(*)::int from leads where follow_up_on is not null) as stepped,
        (select count(*)::int from leads l where (l.follow_up_on, l.follow_up_note) is distinct from (
          select ((t.due_at at time zone ${timeZone})::date, t.title) from lead_tasks t
          where t.lead_id = l.id and t.done_at is null order by t.due_at, t.id limit 1)
          and (l.follow_up_on is not null or exists (select 1 from lead_tasks t where t.lead_id = l.id and t.done_at is null))) as mismatched,
        (select count(*)::int from leads l where l.stage_entered_at is distinct from coalesce(
          (select max(c.changed_at) from lead_status_changes c where c.lead_id = l.id), l.created_at)) as entered_at_other_times`,
    );
    expect(tasks).toMatchObject({ mismatched: 0, entered_at_other_times: 0 });
    expect(tasks!.open).toBe(tasks!.stepped);
    expect(tasks!.open).toBeGreaterThan(10);
    expect(tasks!.done).toBeGreaterThan(5);

    const [range] = await rowsOf<{ past: number; upcoming: number; oldest_event_days: number; future_events: number }>(
      database.db,
      sql`select count(*) filter (where date < current_date)::int as past,
                 count(*) filter (where date >= current_date)::int as upcoming,
                 (select extract(day from now() - min(created_at))::int from analytics_events) as oldest_event_days,
                 (select count(*)::int from analytics_events where created_at > now()) as future_events
          from appointments`,
    );
    expect(range!.past).toBeGreaterThan(0);
    expect(range!.upcoming).toBeGreaterThan(0);
    expect(range!.oldest_event_days).toBeGreaterThanOrEqual(115);
    expect(range!.oldest_event_days).toBeLessThanOrEqual(121);
    expect(range!.future_events).toBe(0);

    const second = await seedDemo(database.db, { businessTimeZone: timeZone });
    expect(second).toContain('(already seeded)');
    expect(await counts()).toEqual(after);
  });

  it('tells one story: visitors return, fewer see the form, fewer send it, some become clients', async () => {
    for (const days of [30, 90]) {
      const report = await getAnalyticsReport(database.db, lastDays(days));
      const f = report.funnel;
      const steps = [f.visitors, f.saw_form, f.started_form, f.sent, f.booked, f.converted];
      for (const [i, n] of steps.entries()) {
        expect(n, `funnel step ${i} over ${days} days`).toBeGreaterThan(0);
        if (i > 0) expect(n, `funnel step ${i} over ${days} days`).toBeLessThanOrEqual(steps[i - 1]!);
      }
      // A few percent of the visitors send the form; each views a couple of pages.
      expect(f.sent / f.visitors).toBeGreaterThan(0.015);
      expect(f.sent / f.visitors).toBeLessThan(0.08);
      expect(report.totals.page_views).toBeGreaterThan(report.totals.visitors * 1.5);
      expect(report.totals.leads).toBeGreaterThan(f.sent); // staff-entered leads too
      // Weekdays are busier than weekends.
      const byWeekday = [0, 0];
      for (const d of report.days) byWeekday[[0, 6].includes(new Date(`${d.day}T12:00:00Z`).getUTCDay()) ? 1 : 0]! += d.visitors;
      expect(byWeekday[0]! / 5).toBeGreaterThan((byWeekday[1]! / 2) * 1.5);
    }
    for (const days of [7, 30]) {
      const report = await getAnalyticsReport(database.db, lastDays(days));
      expect(report.previous_totals.visitors).toBeGreaterThan(0);
    }

    const range = lastDays(90);
    const referrers = await getAnalyticsSources(database.db, range, 'referrer');
    const hosts = referrers.filter((r) => r.origin === 'referrer' && r.leads > 0).map((r) => r.value);
    expect(hosts.length).toBeGreaterThanOrEqual(3);
    expect(hosts).toEqual(expect.arrayContaining(['google.com', 'linkedin.com']));
    const offline = referrers.find((r) => r.origin === 'offline');
    expect(offline?.leads).toBeGreaterThan(0);
    expect(offline?.visitors).toBe(0);

    const campaigns = (await getAnalyticsSources(database.db, range, 'utm')).filter((r) => r.origin === 'utm');
    const campaign = (name: string) => campaigns.find((r) => parseUtmValue(r.value)?.[2] === name)!;
    expect(campaigns.some((r) => parseUtmValue(r.value)?.[2] !== '' && r.fees_cents > 0)).toBe(true);
    // LinkedIn brings fewer visitors than the search ads, but more clients.
    const linkedin = campaign('investor-outreach');
    const ads = campaign('phase-1-esa');
    expect(linkedin.visitors).toBeLessThan(ads.visitors);
    expect(linkedin.converted).toBeGreaterThan(ads.converted);

    const landing = await getAnalyticsSources(database.db, range, 'landing');
    expect(landing.filter((r) => r.origin === 'landing').map((r) => r.value)).toEqual(expect.arrayContaining(['/', '/careers']));

    // The dashboard's summary: fewer visitors than page views, traffic in business hours.
    const summary = await getAnalyticsSummary(database.db, '30d', timeZone);
    expect(summary.unique_visitors).toBeLessThan(summary.page_views * 0.75);
    expect(summary.form_conversions).toBeGreaterThan(0);
    const hours = summary.hourly.map((h) => h.views);
    expect(hours.slice(9, 17).reduce((a, b) => a + b, 0)).toBeGreaterThan(hours.slice(0, 7).reduce((a, b) => a + b, 0) * 3);
  });

  it('ties every website lead to its visit', async () => {
    const [bad] = await rowsOf<Record<string, number>>(
      database.db,
      sql`with starts as materialized (select session_id, created_at from analytics_events where event_type = 'form_start')
          select
            count(*) filter (where s.session_id is null)::int as without_session,
            count(*) filter (where l.submission_id is null)::int as without_submission,
            count(*) filter (where l.visit_hour is distinct from s.first_hour)::int as wrong_hour,
            count(*) filter (where l.source is distinct from s.source or l.utm_campaign is distinct from s.utm_campaign
                               or l.landing_page is distinct from s.landing_page)::int as wrong_touch,
            count(*) filter (where l.pages_viewed is null or l.pages_viewed < 1 or l.pages_viewed > s.page_views)::int as wrong_pages,
            count(*) filter (where not exists (select 1 from starts f where f.session_id = l.analytics_session_id
                               and f.created_at < l.created_at and f.created_at > l.created_at - interval '15 minutes'))::int as without_form_start
          from leads l left join analytics_sessions s on s.session_id = l.analytics_session_id
          where l.analytics_session_id is not null`,
    );
    expect(bad).toEqual({
      without_session: 0,
      without_submission: 0,
      wrong_hour: 0,
      wrong_touch: 0,
      wrong_pages: 0,
      without_form_start: 0,
    });

    const [rows] = await rowsOf<Record<string, number>>(
      database.db,
      sql`select
            count(*) filter (where submission_id is null and analytics_session_id is null)::int as staff,
            count(*) filter (where submission_id is null and analytics_session_id is not null)::int as staff_with_visit,
            -- A client's fee, and the call before it was won.
            count(*) filter (where status = 'Converted' and (estimated_fee_cents is null or estimated_fee_cents % 100 <> 0
                               or estimated_fee_cents not between 150000 and 1200000))::int as bad_fee,
            count(*) filter (where status = 'Converted' and not exists (select 1 from appointments a where a.lead_id = l.id)) ::int as won_without_call,
            -- The history ends at the lead's status, in time order, after the lead was created.
            count(*) filter (where (select c.to_status from lead_status_changes c where c.lead_id = l.id order by c.changed_at desc limit 1)
                               is distinct from l.status)::int as bad_history,
            count(*) filter (where exists (select 1 from lead_status_changes c where c.lead_id = l.id
                               and (c.changed_at < l.created_at or c.changed_at > now())))::int as history_out_of_time,
            count(*) filter (where status <> 'New' and owner_id is null)::int as worked_without_owner,
            count(*) filter (where status = 'Dropped')::int as dropped
          from leads l`,
    );
    expect(rows!.staff).toBeGreaterThan(10);
    expect(rows).toMatchObject({
      staff_with_visit: 0,
      bad_fee: 0,
      won_without_call: 0,
      bad_history: 0,
      history_out_of_time: 0,
      worked_without_owner: 0,
    });
    expect(rows!.dropped).toBeGreaterThan(0);

    const [calls] = await rowsOf<Record<string, number>>(
      database.db,
      sql`select count(*) filter (where status = 'scheduled' and (date + time) at time zone ${timeZone} < now())::int as stale_scheduled,
                 count(*) filter (where status = 'completed' and (date + time) at time zone ${timeZone} > now())::int as completed_in_future,
                 count(*) filter (where lead_id is null)::int as without_lead,
                 count(*) filter (where source = 'booking')::int as booked_by_lead
          from appointments`,
    );
    expect(calls).toMatchObject({ stale_scheduled: 0, completed_in_future: 0, without_lead: 0 });
    expect(calls!.booked_by_lead).toBeGreaterThan(0);
  });
});
