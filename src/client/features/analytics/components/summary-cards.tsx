import { ArrowDownRight, ArrowRight, ArrowUpRight, Clock, Eye, Send, Users, type Icon } from '#client/components/icons.tsx';
import type { ReactNode } from 'react';
import type { AnalyticsSummary } from '#shared/schemas/analytics';
import { ANALYTICS_PERIOD_LABELS, type AnalyticsPeriod } from '#shared/constants';
import { formatChange, formatMinutesSeconds } from '../analytics-format.ts';

function Card({ label, icon: Icon, tint, children }: { label: string; icon: Icon; tint: string; children: ReactNode }) {
  return (
    <li className="flex items-start gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <span className={`flex size-11 shrink-0 items-center justify-center rounded-full ${tint}`}>
        <Icon aria-hidden="true" className="size-5" />
      </span>
      <div className="min-w-0">
        <h2 className="text-sm font-normal text-slate-600">{label}</h2>
        {children}
      </div>
    </li>
  );
}

/** What the change compares, for its tooltip and for screen readers. */
const comparedText = (period: AnalyticsPeriod) => {
  const span = ANALYTICS_PERIOD_LABELS[period].replace(/^Last /, '');
  return `Page views in the last ${span} compared with the ${span} before`;
};

/**
 * Green up arrow when page views grew; red (down, or flat at 0%) otherwise; "—" in grey when
 * neither period had a view (docs/product-rules.md, "Analytics"). A tooltip says what it compares.
 */
function Change({ percent, period }: { percent: number | null; period: AnalyticsPeriod }) {
  const compared = comparedText(period);
  if (percent === null) {
    return (
      <p
        data-testid="page-views-change"
        title={`${compared}: no page views in either, so no change to show`}
        className="mt-1 text-sm text-slate-500"
      >
        <span aria-hidden="true">— vs previous period</span>
        <span className="sr-only">{`No change to show: no page views in the last ${ANALYTICS_PERIOD_LABELS[period].replace(/^Last /, '')} or the period before`}</span>
      </p>
    );
  }
  const up = percent > 0;
  const Arrow = up ? ArrowUpRight : percent < 0 ? ArrowDownRight : ArrowRight;
  return (
    <p
      data-testid="page-views-change"
      title={compared}
      className={`mt-1 flex items-center gap-1 text-sm ${up ? 'text-green-700' : 'text-red-700'}`}
    >
      <Arrow aria-hidden="true" className="size-4 shrink-0" data-direction={up ? 'up' : percent < 0 ? 'down' : 'flat'} />
      <span>{formatChange(percent)} vs previous period</span>
    </p>
  );
}

const valueClass = 'block text-2xl font-bold text-slate-900';

/** Total Page Views (with the change), Unique Visitors, Avg. Time on Site, and the lead form's conversion rate. */
export function SummaryCards({ summary }: { summary: AnalyticsSummary }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <Card label="Total Page Views" icon={Eye} tint="bg-blue-100 text-blue-700">
        <span className={valueClass} data-testid="page-views">
          {summary.page_views.toLocaleString('en-US')}
        </span>
        <Change percent={summary.change_percent} period={summary.period} />
      </Card>
      <Card label="Unique Visitors" icon={Users} tint="bg-purple-100 text-purple-700">
        <span className={valueClass} data-testid="unique-visitors">
          {summary.unique_visitors.toLocaleString('en-US')}
        </span>
      </Card>
      <Card label="Avg. Time on Site" icon={Clock} tint="bg-amber-100 text-amber-700">
        <span className={valueClass} data-testid="avg-time">
          {formatMinutesSeconds(summary.avg_time_seconds)}
        </span>
      </Card>
      <Card label="Form Conversion Rate" icon={Send} tint="bg-emerald-100 text-emerald-700">
        <span className={valueClass} data-testid="conversion-rate">
          {summary.conversion_rate.toLocaleString('en-US')}%
        </span>
        <span className="block text-xs text-slate-500">
          {summary.form_conversions.toLocaleString('en-US')} of {summary.unique_visitors.toLocaleString('en-US')} visitors sent the form
        </span>
      </Card>
    </ul>
  );
}
