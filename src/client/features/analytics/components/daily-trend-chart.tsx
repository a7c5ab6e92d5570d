import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { percentChange } from '#shared/schemas/analytics';
import type { AnalyticsReport, AnalyticsTotals } from '#shared/schemas/analytics-report';
import { formatDate } from '#client/lib/format.ts';
import { formatChange } from '../analytics-format.ts';

const SERIES = [
  { key: 'visitors', name: 'Visitors', color: '#7c3aed' },
  { key: 'page_views', name: 'Page views', color: '#2563eb' },
  { key: 'leads', name: 'Leads', color: '#059669' },
] as const satisfies { key: keyof AnalyticsTotals; name: string; color: string }[];

const short = (day: string) => formatDate(day, 'MMM d');

/** A total with its change from the range before: "—" when both are zero, as the summary cards do. */
function Total({ name, current, previous, compared }: { name: string; current: number; previous: number; compared: string }) {
  const change = percentChange(current, previous);
  return (
    <div title={`${name}: ${compared}`}>
      <dt className="text-xs text-slate-500">{name}</dt>
      <dd className="text-lg font-semibold text-slate-900 tabular-nums">
        {current.toLocaleString('en-US')}{' '}
        <span className={`text-sm font-normal ${change === null ? 'text-slate-500' : change > 0 ? 'text-green-700' : 'text-red-700'}`}>
          {change === null ? '—' : formatChange(change)}
        </span>
      </dd>
    </div>
  );
}

/**
 * Visitors (on the day of their first visit), page views and leads per day of the range, with
 * each total's change from the days just before (the same number of days).
 */
export function DailyTrendChart({ report }: { report: AnalyticsReport }) {
  const compared = `${short(report.from)} – ${short(report.to)} compared with ${short(report.previous_from)} – ${short(report.previous_to)}`;
  const data = report.days.map((d) => ({ ...d, label: short(d.day) }));
  const empty = report.totals.visitors + report.totals.page_views + report.totals.leads === 0;
  return (
    <section aria-labelledby="trend-heading" className="relative min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="trend-heading" className="text-lg font-semibold text-slate-900">
        Activity Trend
      </h2>
      <p className="text-xs text-slate-500">{compared}</p>
      <dl className="mt-3 flex flex-wrap gap-x-8 gap-y-2" data-testid="trend-totals">
        {SERIES.map((s) => (
          <Total key={s.key} name={s.name} current={report.totals[s.key]} previous={report.previous_totals[s.key]} compared={compared} />
        ))}
      </dl>
      <div
        role="img"
        aria-label={empty ? 'Line chart by day: nothing recorded in this period.' : `Line chart of visitors, page views and leads per day, ${data.length} days.`}
        data-testid="trend-chart"
        className="mt-4 h-72 w-full"
      >
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={{ fontSize: 12, fill: '#475569' }} tickLine={false} interval="preserveStartEnd" minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: '#475569' }} tickLine={false} axisLine={false} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {SERIES.map((s) => (
              <Line key={s.key} type="monotone" dataKey={s.key} name={s.name} stroke={s.color} strokeWidth={2} dot={data.length <= 31} isAnimationActive={false} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <div className="sr-only">
        <table data-testid="trend-table">
          <caption>Visitors, page views and leads per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {SERIES.map((s) => (
                <th key={s.key} scope="col">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{formatDate(d.day)}</th>
                <td>{d.visitors}</td>
                <td>{d.page_views}</td>
                <td>{d.leads}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
