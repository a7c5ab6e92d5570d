import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalyticsNow } from '#shared/schemas/analytics';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** Refetched when the notification stream says visitors moved ("change: analytics"), and every 30 s as visitors leave. */
export const analyticsNowQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.analytics.now,
    queryFn: () => apiRequest<AnalyticsNow>('GET', '/api/analytics/now'),
    refetchInterval: 30_000,
  });

export const useAnalyticsNow = () => useQuery(analyticsNowQueryOptions());
