import { useEffect } from 'react';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { formatDate } from '#client/lib/format.ts';
import { useAnalyticsPipeline } from './api/get-analytics-pipeline.ts';
import { useAnalyticsReport, useAnalyticsSources } from './api/get-analytics-report.ts';
import { useAnalyticsSummary } from './api/get-analytics-summary.ts';
import { periodBoundsText } from './analytics-format.ts';
import { ActivityChart } from './components/activity-chart.tsx';
import { DailyTrendChart } from './components/daily-trend-chart.tsx';
import { DevicesCard } from './components/devices-card.tsx';
import { FunnelCard } from './components/funnel-card.tsx';
import { HowWeCount } from './components/how-we-count.tsx';
import { LostReasonsTable } from './components/lost-reasons-table.tsx';
import { NowCard } from './components/now-card.tsx';
import { PeriodPicker } from './components/period-picker.tsx';
import { SourcesTable } from './components/sources-table.tsx';
import { StageConversionTable } from './components/stage-conversion-table.tsx';
import { SummaryCards } from './components/summary-cards.tsx';
import { TopPages } from './components/top-pages.tsx';
import { DEFAULT_ANALYTICS_PERIOD, useAnalyticsPeriod } from './use-analytics-period.ts';

const unavailable = (
  <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">
    Analytics are not available right now.
  </p>
);

/** "from Nov 1, 2026 to Nov 7, 2026", "on Nov 7, 2026", or "in the last 24 hours". */
const periodText = ({ from, to, hours }: { from: string; to: string; hours: number | null }) =>
  hours !== null ? `in the last ${hours} hours` : from === to ? `on ${formatDate(from)}` : `from ${formatDate(from)} to ${formatDate(to)}`;

/**
 * /dashboard/analytics: page views, visitors, time and top pages of a period (its summary);
 * visitors on the site now; the daily trend; the funnel from visitor to client; the sources
 * table; the lost reasons and the stage conversion; and how all of them count. The period (a preset or a custom range of days) lives in
 * the URL; every part of the page counts that one period the same way.
 */
export function AnalyticsPage() {
  const { view, group, setPeriod, setCustom, setGroup } = useAnalyticsPeriod();
  const preset = view.kind === 'preset' ? view.period : undefined;
  // The summary cards are the presets' (a period that ends now); a custom range shows the trend's totals instead.
  const summary = useAnalyticsSummary(preset ?? DEFAULT_ANALYTICS_PERIOD);
  const report = useAnalyticsReport(view.range);
  const sources = useAnalyticsSources(view.range, group);
  const pipeline = useAnalyticsPipeline(view.range);

  // A failed analytics load is only logged, never toasted (docs/product-rules.md, "Silent errors").
  const [summaryError, reportError, sourcesError, pipelineError] = [summary.error, report.error, sources.error, pipeline.error];
  useEffect(() => {
    for (const error of [summaryError, reportError, sourcesError, pipelineError])
      if (error) console.error('Loading analytics failed', error);
  }, [summaryError, reportError, sourcesError, pipelineError]);

  const period = report.data ? periodText(report.data) : '';
  const pipelinePeriod = pipeline.data ? periodText(pipeline.data) : period;
  return (
    <section aria-labelledby="analytics-heading" className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="analytics-heading" className="text-2xl font-bold text-slate-900">
            Analytics
          </h1>
          {report.data && <p className="text-sm text-slate-600">{periodBoundsText(report.data, report.dataUpdatedAt)}</p>}
        </div>
        <PeriodPicker
          key={view.kind === 'custom' ? `${view.from}-${view.to}` : 'preset'}
          view={view}
          onPeriod={setPeriod}
          onCustom={setCustom}
        />
      </div>
      {preset &&
        (summary.isPending ? (
          <Spinner className="py-16" label="Loading analytics..." />
        ) : summary.isError ? (
          unavailable
        ) : (
          <SummaryCards summary={summary.data} />
        ))}
      <NowCard />
      {preset === '24h' ? (
        summary.data && (
          <div className="grid gap-6 lg:grid-cols-3">
            <div className="min-w-0 lg:col-span-2">
              <ActivityChart period={preset} hourly={summary.data.hourly} />
            </div>
            <TopPages pages={summary.data.top_pages} />
          </div>
        )
      ) : report.isPending ? (
        <Spinner className="py-16" label="Loading the trend..." />
      ) : report.isError ? (
        unavailable
      ) : (
        <div className="grid gap-6 lg:grid-cols-3">
          <div className="min-w-0 lg:col-span-2">
            <DailyTrendChart report={report.data} />
          </div>
          <FunnelCard funnel={report.data.funnel} period={period} />
        </div>
      )}
      {preset === '24h' && report.data && <FunnelCard funnel={report.data.funnel} period={period} />}
      <SourcesTable data={sources.data} group={group} onGroup={setGroup} loading={sources.isFetching} />
      <div className="grid gap-6 lg:grid-cols-2">
        <StageConversionTable data={pipeline.data} period={pipelinePeriod} loading={pipeline.isFetching} />
        <LostReasonsTable data={pipeline.data} period={pipelinePeriod} loading={pipeline.isFetching} />
      </div>
      {preset && summary.data && (
        <div className="grid gap-6 lg:grid-cols-3">
          {preset !== '24h' && (
            <div className="min-w-0 lg:col-span-2">
              <TopPages pages={summary.data.top_pages} />
            </div>
          )}
          <DevicesCard devices={summary.data.devices} />
        </div>
      )}
      {report.data && <HowWeCount report={report.data} asOf={report.dataUpdatedAt} />}
    </section>
  );
}
