import { percentChange } from '#shared/constants';
import { useState } from 'react';
import type { AnalyticsReport, AnalyticsTotals } from '#shared/schemas/analytics-report';
import { formatDate } from '#client/lib/format.ts';
import { formatChange } from '../analytics-format.ts';
import { CategoryAxis, ChartSvg, ChartTooltip, labelStep, MARGIN, plotFor, useElementWidth, ValueAxis } from './chart-frame.tsx';

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
  const [frame, width] = useElementWidth<HTMLDivElement>();
  const [active, setActive] = useState<number | undefined>();
  const plot = plotFor(width, Math.max(0, ...data.flatMap((d) => SERIES.map((s) => d[s.key]))));
  // Inset from the plot's edges, so the first and last day's labels are not cut off.
  const inset = 24;
  const step = data.length > 1 ? (plot.width - 2 * inset) / (data.length - 1) : 0;
  const x = (i: number) => MARGIN.left + (data.length > 1 ? inset + step * i : plot.width / 2);
  const hovered = active === undefined ? undefined : data[active];
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
        ref={frame}
        role="img"
        aria-label={
          empty
            ? 'Line chart by day: nothing recorded in this period.'
            : `Line chart of visitors, page views and leads per day, ${data.length} days.`
        }
        data-testid="trend-chart"
        className="relative mt-4 h-72 w-full"
      >
        <ChartSvg width={width} count={data.length} x={x} onActive={setActive}>
          <ValueAxis plot={plot} />
          {active !== undefined && <line x1={x(active)} x2={x(active)} y1={MARGIN.top} y2={MARGIN.top + plot.height} stroke="#94a3b8" />}
          {SERIES.map((s) => (
            <g key={s.key} data-testid="trend-line" fill={s.color}>
              <path
                d={data.map((d, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${plot.y(d[s.key]).toFixed(1)}`).join('')}
                fill="none"
                stroke={s.color}
                strokeWidth={2}
                strokeLinejoin="round"
              />
              {data.length <= 31 && data.map((d, i) => <circle key={i} cx={x(i)} cy={plot.y(d[s.key])} r={3} />)}
            </g>
          ))}
          <CategoryAxis plot={plot} labels={data.map((d) => d.label)} x={x} step={labelStep(data.length, plot.width, 56)} />
        </ChartSvg>
        {hovered && active !== undefined && (
          <ChartTooltip x={x(active)} chartWidth={width}>
            <p className="font-semibold text-slate-900">{formatDate(hovered.day)}</p>
            {SERIES.map((s) => (
              <p key={s.key} className="text-slate-700">
                <span aria-hidden="true" className="mr-1.5 inline-block h-2 w-2 rounded-full" style={{ backgroundColor: s.color }} />
                {s.name}: {hovered[s.key].toLocaleString('en-US')}
              </p>
            ))}
          </ChartTooltip>
        )}
      </div>
      <ul className="mt-2 flex flex-wrap justify-center gap-x-4 gap-y-1 text-xs text-slate-700" aria-hidden="true">
        {SERIES.map((s) => (
          <li key={s.key} className="flex items-center gap-1.5">
            <span className="inline-block h-0.5 w-4" style={{ backgroundColor: s.color }} />
            {s.name}
          </li>
        ))}
      </ul>
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
