import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Overview } from '#shared/schemas/overview';
import { apiRequest } from '#client/lib/api-client.ts';

export const overviewQueryKey = ['overview'] as const;

export const getOverview = () => apiRequest<Overview>('GET', '/api/overview');

export const overviewQueryOptions = () => queryOptions({ queryKey: overviewQueryKey, queryFn: getOverview });

/** The Overview's counts and lists; a failure is only logged (docs/product-rules.md, "Silent errors"). */
export const useOverview = () => useQuery(overviewQueryOptions());
