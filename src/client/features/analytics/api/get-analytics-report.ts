import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalyticsPeriod } from '#shared/constants';
import type { AnalyticsReport, AnalyticsSourceGroup, AnalyticsSources } from '#shared/schemas/analytics-report';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** The period a report covers: a preset (the summary cards' own period) or the days from `from` to `to`. */
export type ReportRange = { period: AnalyticsPeriod } | { from: string; to: string };

export function rangeParams(range: ReportRange): URLSearchParams {
  return new URLSearchParams('period' in range ? { period: range.period } : { from: range.from, to: range.to });
}

export const analyticsReportQueryOptions = (range: ReportRange) =>
  queryOptions({
    queryKey: queryKeys.analytics.report.range(range),
    queryFn: () => apiRequest<AnalyticsReport>('GET', `/api/analytics/report?${rangeParams(range).toString()}`),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });

export const useAnalyticsReport = (range: ReportRange) => useQuery(analyticsReportQueryOptions(range));

export const useAnalyticsSources = (range: ReportRange, group: AnalyticsSourceGroup) =>
  useQuery({
    queryKey: queryKeys.analytics.sources.range(range, group),
    queryFn: () => {
      const params = rangeParams(range);
      params.set('group', group);
      return apiRequest<AnalyticsSources>('GET', `/api/analytics/sources?${params.toString()}`);
    },
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
