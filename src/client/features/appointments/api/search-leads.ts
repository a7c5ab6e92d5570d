import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { LeadListResponse } from '#shared/schemas/lead';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const LEAD_PICKER_SIZE = 10;
const SEARCH_MAX = 200; // the server's limit on search text

export type LeadOption = { id: string; full_name: string; email: string };

/** The lead picker asks the server for a few matches: there may be 100,000 leads. */
export const searchLeads = async (search: string): Promise<LeadOption[]> => {
  const params = new URLSearchParams({ page_size: String(LEAD_PICKER_SIZE) });
  const text = search.trim().slice(0, SEARCH_MAX);
  if (text) params.set('search', text);
  const { leads } = await apiRequest<LeadListResponse>('GET', `/api/leads?${params.toString()}`);
  return leads.map(({ id, full_name, email }) => ({ id, full_name, email }));
};

export const leadSearchQueryOptions = (search: string) =>
  queryOptions({
    queryKey: queryKeys.leadPicker(search.trim()),
    queryFn: () => searchLeads(search),
    staleTime: 30_000,
    // Keep the last matches listed while the next search loads.
    placeholderData: keepPreviousData,
  });

export const useLeadSearch = (search: string, enabled: boolean) => useQuery({ ...leadSearchQueryOptions(search), enabled });
