import { sourceLabel as labelOf } from '#shared/source-label';
import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { AnalyticsSourceRow } from '#shared/schemas/analytics-report';
import { addDays, isoWeekday, zonedInstant, zonedParts } from '#shared/zoned-time';
import type { WeeklyFigures, WeeklyReportData } from '../../lib/weekly-report-data.ts';
import type { Db } from '../client.ts';
import { queryRows } from '../sql.ts';
import { getAnalyticsReport, getAnalyticsSources, previousRange, type DayRange } from './analytics-report-queries.ts';
import { newEmail, type QueueMail } from './emails-queries.ts';

/**
 * The weekly report email: every Monday from 8:00 in the business time zone, each active
 * account that opted in (users.email_weekly_report) gets last week's figures through the
 * outbox. The job that queues it runs every minute in every app process; the message's
 * dedupe key (week and recipient) makes the insert a no-op after the first, whichever
 * process gets there first, and the insert is one statement, so it happened or it did not.
 */

/** Monday 8:00 in the business time zone. */
export const WEEKLY_REPORT_MINUTES = 8 * 60;
const TOP_SOURCES = 3;
const FOLLOW_UPS_LISTED = 5;

/** A sources row as the email names it: as the Analytics page does. */
export const sourceLabel = (row: Pick<AnalyticsSourceRow, 'origin' | 'value'>) => labelOf(row.origin, row.value);

/** The Monday of the week (Monday to Sunday) holding `date`. */
const mondayOf = (date: string) => addDays(date, 1 - isoWeekday(date));

/** The last complete week at `now`: Monday to Sunday before this week's Monday. */
export function lastCompleteWeek(now: Date, timeZone: string): DayRange {
  const monday = mondayOf(zonedParts(now.getTime(), timeZone).date);
  return { from: addDays(monday, -7), to: addDays(monday, -1), timeZone };
}

/**
 * The week whose report is due at `now`, or undefined before this week's Monday 8:00. Only
 * the week just ended: a server down all week does not send the reports it missed.
 */
export function weekDueAt(now: Date, timeZone: string): DayRange | undefined {
  const week = lastCompleteWeek(now, timeZone);
  const monday = addDays(week.to, 1);
  // A zone whose clocks skip 8:00 that Monday sends at 9:00.
  const sendAt = zonedInstant(monday, WEEKLY_REPORT_MINUTES, timeZone) ?? zonedInstant(monday, WEEKLY_REPORT_MINUTES + 60, timeZone);
  return sendAt !== undefined && now.getTime() >= sendAt ? week : undefined;
}

async function figuresOf(db: Db, range: DayRange): Promise<{ figures: WeeklyFigures; sources: AnalyticsSourceRow[] }> {
  const [report, sources] = await Promise.all([getAnalyticsReport(db, range), getAnalyticsSources(db, range, 'referrer')]);
  const sum = (pick: (row: AnalyticsSourceRow) => number) => sources.reduce((n, row) => n + pick(row), 0);
  return {
    figures: {
      visitors: report.totals.visitors,
      leads: report.totals.leads,
      bookings: sum((r) => r.bookings),
      conversions: sum((r) => r.converted),
      fees_cents: Math.round(sum((r) => r.fees_cents)),
    },
    sources,
  };
}

const followUpRow = z.object({ lead_id: z.uuid(), full_name: z.string(), follow_up_on: z.string(), due: z.number().int() });

/** Leads whose follow-up date is `today` or earlier: how many, and the oldest few (leads_follow_up_on_idx). */
async function dueFollowUps(db: Db, today: string): Promise<WeeklyReportData['follow_ups']> {
  const rows = await queryRows(
    db,
    sql`
    select l.id as lead_id, l.full_name, to_char(l.follow_up_on, 'YYYY-MM-DD') as follow_up_on,
      (select count(*)::int from leads where follow_up_on <= ${today}::date) as due
    from leads l where l.follow_up_on <= ${today}::date
    order by l.follow_up_on, l.id limit ${FOLLOW_UPS_LISTED}`,
    followUpRow,
  );
  return { as_of: today, due: rows[0]?.due ?? 0, leads: rows.map(({ due: _due, ...lead }) => lead) };
}

/** The report of `week`, made at `now` (which dates the follow-ups due). */
export async function buildWeeklyReport(db: Db, week: DayRange, now: Date): Promise<WeeklyReportData> {
  const [current, previous, followUps] = await Promise.all([
    figuresOf(db, week),
    figuresOf(db, previousRange(week)),
    dueFollowUps(db, zonedParts(now.getTime(), week.timeZone).date),
  ]);
  const top = current.sources
    .filter((row) => row.converted > 0)
    .sort((a, b) => b.converted - a.converted || b.fees_cents - a.fees_cents || sourceLabel(a).localeCompare(sourceLabel(b)))
    .slice(0, TOP_SOURCES)
    .map((row) => ({ label: sourceLabel(row), clients: row.converted, fees_cents: Math.round(row.fees_cents) }));
  return {
    from: week.from,
    to: week.to,
    time_zone: week.timeZone,
    week: current.figures,
    previous: previous.figures,
    top_sources: top,
    follow_ups: followUps,
  };
}

/** Who gets the report: every active account that asked for it. */
const RECIPIENTS = sql`u.email_weekly_report and u.deactivated_at is null`;
const dedupeKey = (from: string) => sql`'weekly-report:' || ${from}::text || ':' || u.id::text`;

/**
 * Queues the report due at `now` (see weekDueAt) to every recipient who does not have it yet;
 * how many were queued. The figures are read only when someone is missing it, so the runs
 * after the first cost one indexed lookup. Someone who opts in later that week gets that
 * week's report at the next run.
 */
export async function queueWeeklyReports(db: Db, options: { now: Date; timeZone: string; mail: QueueMail }): Promise<number> {
  const week = weekDueAt(options.now, options.timeZone);
  if (!week) return 0;
  const [pending] = await queryRows(
    db,
    sql`
    select exists (select 1 from users u where ${RECIPIENTS}
      and not exists (select 1 from emails e where e.dedupe_key = ${dedupeKey(week.from)})) as due`,
    z.object({ due: z.boolean() }),
  );
  if (!pending?.due) return 0;
  const data = await buildWeeklyReport(db, week, options.now);
  const queued = await queryRows(
    db,
    sql`
    insert into emails (message_id, status, last_error, kind, to_address, data, dedupe_key)
    select ${newEmail(options.mail)}, 'weekly-report', u.email, ${JSON.stringify(data)}::jsonb, ${dedupeKey(week.from)}
    from users u where ${RECIPIENTS}
    on conflict (dedupe_key) where dedupe_key is not null do nothing
    returning id`,
    z.object({ id: z.uuid() }),
  );
  return queued.length;
}

/** Queues the last complete week's report to one admin at once ("Send now"), whatever their preference; its id. */
export async function queueWeeklyReportTo(
  db: Db,
  user: { email: string },
  options: { now: Date; timeZone: string; mail: QueueMail },
): Promise<string> {
  const data = await buildWeeklyReport(db, lastCompleteWeek(options.now, options.timeZone), options.now);
  const [row] = await queryRows(
    db,
    sql`
    insert into emails (message_id, status, last_error, kind, to_address, data)
    values (${newEmail(options.mail)}, 'weekly-report', ${user.email}, ${JSON.stringify(data)}::jsonb)
    returning id`,
    z.object({ id: z.uuid() }),
  );
  return row!.id;
}
