import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DuplicatesResponse } from '#shared/schemas/lead-privacy';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const getDuplicates = (id: string) => apiRequest<DuplicatesResponse>('GET', apiPath`/api/leads/${id}/duplicates`);

export const duplicatesQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.leads.duplicates(id), queryFn: () => getDuplicates(id) });

/** The other leads with this lead's email (legacy duplicates, to merge). */
export const useDuplicates = (id: string) => useQuery(duplicatesQueryOptions(id));
