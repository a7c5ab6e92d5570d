import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalyticsPipeline } from '#shared/schemas/analytics-pipeline';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';
import { rangeParams, type ReportRange } from './get-analytics-report.ts';

/** The period's lost reasons and stage conversion, for the same period as the report. */
export const analyticsPipelineQueryOptions = (range: ReportRange) =>
  queryOptions({
    queryKey: queryKeys.analytics.pipeline.range(range),
    queryFn: () => apiRequest<AnalyticsPipeline>('GET', `/api/analytics/pipeline?${rangeParams(range).toString()}`),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });

export const useAnalyticsPipeline = (range: ReportRange) => useQuery(analyticsPipelineQueryOptions(range));
