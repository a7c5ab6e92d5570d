import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { LeadListResponse } from '#shared/schemas/lead';
import { apiRequest } from '#client/lib/api-client.ts';

/** The Leads Manager's view, as the URL holds it; '' means no filter. */
export type LeadListView = { search: string; status: string; property_type: string; page: number };

export const PAGE_SIZE = 20;

/** Every leads query starts with this key, so a change to any lead can refresh them all. */
export const leadsQueryKey = ['leads'] as const;

/** The query string of the list and of the CSV export (which takes no page). */
export function leadFilterParams(view: Omit<LeadListView, 'page'>): URLSearchParams {
  const params = new URLSearchParams();
  if (view.search) params.set('search', view.search);
  if (view.status) params.set('status', view.status);
  if (view.property_type) params.set('property_type', view.property_type);
  return params;
}

export const getLeads = (view: LeadListView) => {
  const params = leadFilterParams(view);
  params.set('page', String(view.page));
  params.set('page_size', String(PAGE_SIZE));
  return apiRequest<LeadListResponse>('GET', `/api/leads?${params.toString()}`);
};

export const leadsQueryOptions = (view: LeadListView) =>
  queryOptions({
    queryKey: [...leadsQueryKey, 'list', view],
    queryFn: () => getLeads(view),
    // Keep the current rows on screen while the next search or page loads.
    placeholderData: keepPreviousData,
  });

export const useLeads = (view: LeadListView) => useQuery(leadsQueryOptions(view));
