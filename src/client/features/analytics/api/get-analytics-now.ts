import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalyticsNow } from '#shared/schemas/analytics';
import { apiRequest } from '#client/lib/api-client.ts';

/** Refetched when the notification stream says visitors moved ("change: analytics"), and every 30 s as visitors leave. */
export const analyticsNowQueryKey = ['analytics-now'] as const;

export const analyticsNowQueryOptions = () =>
  queryOptions({ queryKey: analyticsNowQueryKey, queryFn: () => apiRequest<AnalyticsNow>('GET', '/api/analytics/now'), refetchInterval: 30_000 });

export const useAnalyticsNow = () => useQuery(analyticsNowQueryOptions());
