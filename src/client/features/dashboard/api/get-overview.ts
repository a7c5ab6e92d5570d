import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Overview } from '#shared/schemas/overview';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const getOverview = () => apiRequest<Overview>('GET', '/api/overview');

export const overviewQueryOptions = () => queryOptions({ queryKey: queryKeys.overview, queryFn: getOverview });

/** The Overview's counts and lists; a failure is only logged (docs/product-rules.md, "Silent errors"). */
export const useOverview = () => useQuery(overviewQueryOptions());
