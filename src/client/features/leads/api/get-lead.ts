import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LeadDetail } from '#shared/schemas/lead';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const getLead = (id: string) => apiRequest<LeadDetail>('GET', apiPath`/api/leads/${id}`);

export const leadQueryOptions = (id: string) =>
  // Dropped once the Edit Lead modal closes, so reopening it never pre-fills stale values.
  queryOptions({ queryKey: queryKeys.leads.detail(id), queryFn: () => getLead(id), gcTime: 0 });

/** One lead with its status history, for the Edit Lead modal. */
export const useLead = (id: string | null) => useQuery({ ...leadQueryOptions(id ?? ''), enabled: id !== null });
