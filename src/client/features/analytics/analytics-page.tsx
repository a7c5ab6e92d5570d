import { useEffect } from 'react';
import { ANALYTICS_PERIOD_LABELS, ANALYTICS_PERIODS, type AnalyticsPeriod } from '#shared/constants';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useAnalyticsSummary } from './api/get-analytics-summary.ts';
import { ActivityChart } from './components/activity-chart.tsx';
import { NowCard } from './components/now-card.tsx';
import { SummaryCards } from './components/summary-cards.tsx';
import { TopPages } from './components/top-pages.tsx';
import { VisitSources } from './components/visit-sources.tsx';
import { useAnalyticsPeriod } from './use-analytics-period.ts';

/** /dashboard/analytics: the site's page views, visitors, time, hourly activity and top pages. */
export function AnalyticsPage() {
  const [period, setPeriod] = useAnalyticsPeriod();
  const summary = useAnalyticsSummary(period);

  // A failed analytics load is only logged, never toasted (docs/product-rules.md, "Silent errors").
  useEffect(() => {
    if (summary.isError) console.error('Loading the analytics summary failed', summary.error);
  }, [summary.isError, summary.error]);

  return (
    <section aria-labelledby="analytics-heading" className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 id="analytics-heading" className="text-2xl font-bold text-slate-900">
          Analytics
        </h1>
        <SelectField label="Period" value={period} onChange={(e) => setPeriod(e.target.value as AnalyticsPeriod)} className="w-full sm:w-48">
          {ANALYTICS_PERIODS.map((p) => (
            <option key={p} value={p}>
              {ANALYTICS_PERIOD_LABELS[p]}
            </option>
          ))}
        </SelectField>
      </div>
      {summary.isPending ? (
        <Spinner className="py-16" label="Loading analytics..." />
      ) : summary.isError ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">Analytics are not available right now.</p>
      ) : (
        <>
          <SummaryCards summary={summary.data} />
          <NowCard />
          <div className="grid gap-6 lg:grid-cols-3">
            <div className="min-w-0 lg:col-span-2">
              <ActivityChart period={period} hourly={summary.data.hourly} />
            </div>
            <TopPages pages={summary.data.top_pages} />
          </div>
          <VisitSources referrers={summary.data.top_referrers} devices={summary.data.devices} />
        </>
      )}
    </section>
  );
}
