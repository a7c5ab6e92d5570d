import { weeklyReportDataSchema, type WeeklyFigures, type WeeklyReportData } from '../../lib/weekly-report-data.ts';
import { oneLine, parse, render, type ComposedEmail, type MailContext, type Template } from './render.ts';

/** A day (YYYY-MM-DD, a calendar date in no zone) as people read it. */
const formatDay = (date: string, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', ...options }).format(new Date(`${date}T00:00:00Z`));
const LONG_DAY: Intl.DateTimeFormatOptions = { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' };

const formatCount = (n: number) => n.toLocaleString('en-US');
/** Cents as dollars: "$12,500", "$1,250.50". */
export const formatDollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: cents % 100 === 0 ? 0 : 2, maximumFractionDigits: 2 })}`;

/** "120 (up 20 from 100)", "100 (same as the week before)". */
function withChange(now: number, before: number, format: (n: number) => string): string {
  if (now === before) return `${format(now)} (same as the week before)`;
  return `${format(now)} (${now > before ? 'up' : 'down'} ${format(Math.abs(now - before))} from ${format(before)})`;
}

const FIGURES: [keyof WeeklyFigures, string, (n: number) => string][] = [
  ['visitors', 'Visitors', formatCount],
  ['leads', 'Leads', formatCount],
  ['bookings', 'Calls booked', formatCount],
  ['conversions', 'Clients won', formatCount],
  ['fees_cents', 'Fees', formatDollars],
];

/** How the figures are counted, in one line under them (the Analytics page counts the same way). */
export const WEEKLY_REPORT_DEFINITIONS =
  "How these are counted: visitors are people on their first visit that week; leads, calls booked, clients won and fees (the clients' estimated fees) are those of that week's leads, website leads by the week of their first visit and the others by the day they were entered.";

const weeklyReportSubject = (r: WeeklyReportData) =>
  oneLine(
    `Weekly report: ${formatDay(r.from, { month: 'short', day: 'numeric' })} – ${formatDay(r.to, { month: 'short', day: 'numeric', year: 'numeric' })}`,
  );

function weeklyReport(data: unknown, ctx: MailContext): ComposedEmail {
  const r = parse(weeklyReportDataSchema, data);
  const f = r.follow_ups;
  const more = f.due - f.leads.length;
  const analytics = `${ctx.publicUrl}/dashboard/analytics?period=custom&from=${encodeURIComponent(r.from)}&to=${encodeURIComponent(r.to)}`;
  return {
    subject: weeklyReportSubject(r),
    ...render(ctx, `Last week at ${ctx.site.name}: ${formatDay(r.from, LONG_DAY)} to ${formatDay(r.to, LONG_DAY)}.`, [
      { rows: FIGURES.map(([key, label, format]) => [label, withChange(r.week[key], r.previous[key], format)]) },
      { heading: 'Top sources by clients', lines: r.top_sources.length === 0 ? ['No clients won that week.'] : [] },
      {
        rows: r.top_sources.map((s): [string, string] => [
          s.label,
          `${formatCount(s.clients)} ${s.clients === 1 ? 'client' : 'clients'}, ${formatDollars(s.fees_cents)} in fees`,
        ]),
      },
      {
        heading: 'Follow-ups due',
        lines: [
          f.due === 0
            ? `No follow-ups due on or before ${formatDay(f.as_of, LONG_DAY)}.`
            : `${formatCount(f.due)} ${f.due === 1 ? 'lead has a follow-up' : 'leads have follow-ups'} due on or before ${formatDay(f.as_of, LONG_DAY)}${more > 0 ? `; the oldest ${f.leads.length}:` : ':'}`,
        ],
      },
      {
        rows: f.leads.map((l): [string, string] => [
          l.full_name,
          formatDay(l.follow_up_on, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' }),
        ]),
      },
      { link: { label: 'Open the Analytics page for that week', href: analytics } },
      { lines: [WEEKLY_REPORT_DEFINITIONS] },
    ]),
  };
}

export const weeklyReportTemplate: Template = {
  compose: weeklyReport,
  subject: (data) => weeklyReportSubject(parse(weeklyReportDataSchema, data)),
};
