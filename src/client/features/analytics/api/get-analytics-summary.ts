import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalyticsPeriod } from '#shared/constants';
import type { AnalyticsSummary } from '#shared/schemas/analytics';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const getAnalyticsSummary = (period: AnalyticsPeriod) =>
  apiRequest<AnalyticsSummary>('GET', apiPath`/api/analytics/summary?period=${period}`);

export const analyticsSummaryQueryOptions = (period: AnalyticsPeriod) =>
  queryOptions({ queryKey: queryKeys.analytics.summary.period(period), queryFn: () => getAnalyticsSummary(period), staleTime: 60_000 });

/** The dashboard's summary for one period; a failure is only logged (docs/product-rules.md, "Silent errors"). */
export const useAnalyticsSummary = (period: AnalyticsPeriod) => useQuery(analyticsSummaryQueryOptions(period));
