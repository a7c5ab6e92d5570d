import { Bar, BarChart, CartesianGrid, Rectangle, ResponsiveContainer, Tooltip, XAxis, YAxis, type BarShapeProps, type TooltipContentProps } from 'recharts';
import type { AnalyticsPeriod } from '#shared/constants';
import type { AnalyticsSummary } from '#shared/schemas/analytics';
import { formatHour, formatMinutesSeconds } from '../analytics-format.ts';

export type ActivityBar = { hour: number; label: string; views: number; time_spent: number };

/** The 24 bars in hour order (12am … 11pm), whatever order the buckets came in. */
export function toActivityBars(hourly: AnalyticsSummary['hourly']): ActivityBar[] {
  return Array.from({ length: 24 }, (_, hour) => {
    const bucket = hourly.find((b) => b.hour === hour);
    return { hour, label: formatHour(hour), views: bucket?.views ?? 0, time_spent: bucket?.time_spent ?? 0 };
  });
}

export const activityChartTitle = (period: AnalyticsPeriod) => (period === '24h' ? 'Hourly Activity' : 'Activity Trend');

/** A one-sentence summary for screen readers: the chart itself is a picture to them. */
export function describeActivity(bars: ActivityBar[]): string {
  const total = bars.reduce((sum, b) => sum + b.views, 0);
  if (total === 0) return 'Bar chart of page views by hour of day: no page views in this period.';
  const busiest = bars.reduce((best, b) => (b.views > best.views ? b : best));
  return `Bar chart of page views by hour of day, 24 bars; busiest hour ${busiest.label} with ${busiest.views.toLocaleString('en-US')} views.`;
}

function ActivityTooltip({ active, payload }: TooltipContentProps) {
  const bar = payload?.[0]?.payload as ActivityBar | undefined;
  if (!active || !bar) return null;
  return (
    <div data-testid="activity-tooltip" className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm shadow-md">
      <p className="font-semibold text-slate-900">{bar.label}</p>
      <p className="text-slate-700">Views: {bar.views.toLocaleString('en-US')}</p>
      <p className="text-slate-700">Time spent: {formatMinutesSeconds(bar.time_spent)}</p>
    </div>
  );
}

/**
 * recharts skips zero-height bars unless the shape is custom; this one keeps all 24 hours in
 * the DOM (an empty hour is an empty group), so the chart always has one bar per hour.
 */
function HourBar(props: BarShapeProps) {
  return (
    <g data-testid="activity-bar">
      <Rectangle {...props} />
    </g>
  );
}

/** Page views by hour of day in the business time zone (docs/product-rules.md, "Analytics"). */
export function ActivityChart({ period, hourly }: { period: AnalyticsPeriod; hourly: AnalyticsSummary['hourly'] }) {
  const bars = toActivityBars(hourly);
  const title = activityChartTitle(period);
  return (
    <section aria-labelledby="activity-heading" className="relative min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="activity-heading" className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div role="img" aria-label={describeActivity(bars)} data-testid="activity-chart" className="mt-4 h-72 w-full">
        <ResponsiveContainer width="100%" height="100%">
          {/* The hidden table below is the accessible version, so recharts' keyboard layer is off. */}
          <BarChart data={bars} margin={{ top: 4, right: 4, bottom: 0, left: -16 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={{ fontSize: 12, fill: '#475569' }} tickLine={false} interval="preserveStartEnd" minTickGap={8} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: '#475569' }} tickLine={false} axisLine={false} />
            <Tooltip content={ActivityTooltip} cursor={{ fill: '#f1f5f9' }} />
            <Bar dataKey="views" name="Views" fill="#2563eb" radius={[3, 3, 0, 0]} shape={HourBar} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      {/* A table ignores its 1px sr-only width, so the wrapper hides it without widening the page. */}
      <div className="sr-only">
        <table data-testid="activity-table">
          <caption>{title}: page views and time spent by hour of day</caption>
          <thead>
            <tr>
              <th scope="col">Hour</th>
              <th scope="col">Views</th>
              <th scope="col">Time spent</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.hour}>
                <th scope="row">{bar.label}</th>
                <td>{bar.views}</td>
                <td>{formatMinutesSeconds(bar.time_spent)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
