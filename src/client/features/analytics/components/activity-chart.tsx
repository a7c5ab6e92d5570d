import { useState } from 'react';
import type { AnalyticsPeriod } from '#shared/constants';
import type { AnalyticsSummary } from '#shared/schemas/analytics';
import { formatHour, formatMinutesSeconds } from '../analytics-format.ts';
import { CategoryAxis, ChartSvg, ChartTooltip, labelStep, MARGIN, plotFor, useElementWidth, ValueAxis } from './chart-frame.tsx';

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

/** A bar with rounded top corners, `width` wide, from the axis at `bottom` up to `top`. */
function barPath(x: number, width: number, top: number, bottom: number): string {
  const r = Math.min(3, width / 2, bottom - top);
  return `M${x},${bottom}V${top + r}Q${x},${top} ${x + r},${top}H${x + width - r}Q${x + width},${top} ${x + width},${top + r}V${bottom}Z`;
}

/** Page views by hour of day in the business time zone (docs/product-rules.md, "Analytics"). */
export function ActivityChart({ period, hourly }: { period: AnalyticsPeriod; hourly: AnalyticsSummary['hourly'] }) {
  const bars = toActivityBars(hourly);
  const title = activityChartTitle(period);
  const [frame, width] = useElementWidth<HTMLDivElement>();
  const [active, setActive] = useState<number | undefined>();
  const plot = plotFor(width, Math.max(...bars.map((b) => b.views)));
  const band = plot.width / bars.length;
  const x = (i: number) => MARGIN.left + band * i + band / 2;
  const barWidth = Math.max(1, band * 0.7);
  const bottom = plot.y(0);
  const hovered = active === undefined ? undefined : bars[active];
  return (
    <section aria-labelledby="activity-heading" className="relative min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="activity-heading" className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div ref={frame} role="img" aria-label={describeActivity(bars)} data-testid="activity-chart" className="relative mt-4 h-72 w-full">
        <ChartSvg width={width} count={bars.length} x={x} onActive={setActive}>
          <ValueAxis plot={plot} />
          {active !== undefined && <rect x={x(active) - band / 2} y={MARGIN.top} width={band} height={plot.height} fill="#f1f5f9" />}
          {bars.map((bar, i) => (
            // An empty hour is an empty group, so the chart always has one group per hour.
            <g key={bar.hour} data-testid="activity-bar">
              {bar.views > 0 && <path d={barPath(x(i) - barWidth / 2, barWidth, plot.y(bar.views), bottom)} fill="#2563eb" />}
            </g>
          ))}
          <CategoryAxis plot={plot} labels={bars.map((b) => b.label)} x={x} step={labelStep(bars.length, plot.width, 36)} />
        </ChartSvg>
        {hovered && active !== undefined && (
          <ChartTooltip x={x(active)} chartWidth={width} testId="activity-tooltip">
            <p className="font-semibold text-slate-900">{hovered.label}</p>
            <p className="text-slate-700">Views: {hovered.views.toLocaleString('en-US')}</p>
            <p className="text-slate-700">Time spent: {formatMinutesSeconds(hovered.time_spent)}</p>
          </ChartTooltip>
        )}
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
