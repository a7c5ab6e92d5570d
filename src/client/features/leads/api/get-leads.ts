import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { LeadListResponse, LeadSort } from '#shared/schemas/lead';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export type SortDirection = 'asc' | 'desc';

/**
 * The Leads Manager's view, as the URL holds it; '' means no filter. `owner` is '' (anyone),
 * 'me', 'none' (unassigned) or an admin's id; the created dates are YYYY-MM-DD.
 */
export type LeadListView = {
  search: string;
  status: string;
  property_type: string;
  owner: string;
  created_from: string;
  created_to: string;
  /** One row of the Analytics sources table: its origin and value, and the days of the visits ('' for none). */
  origin: string;
  origin_value: string;
  visit_from: string;
  visit_to: string;
  sort: LeadSort;
  dir: SortDirection;
  page: number;
};

export const PAGE_SIZE = 20;

/** A column's first click: newest first for the date, A to Z (earliest first) for the others. */
export const defaultDirection = (sort: LeadSort): SortDirection => (sort === 'created' ? 'desc' : 'asc');

/** The query string of the list and of the CSV export (which takes no page); defaults are left out. */
export function leadFilterParams(view: Omit<LeadListView, 'page'>): URLSearchParams {
  const params = new URLSearchParams();
  if (view.search) params.set('search', view.search);
  if (view.status) params.set('status', view.status);
  if (view.property_type) params.set('property_type', view.property_type);
  if (view.owner) params.set('owner', view.owner);
  if (view.created_from) params.set('created_from', view.created_from);
  if (view.created_to) params.set('created_to', view.created_to);
  if (view.origin) {
    params.set('origin', view.origin);
    if (view.origin_value) params.set('origin_value', view.origin_value);
  }
  if (view.visit_from) params.set('visit_from', view.visit_from);
  if (view.visit_to) params.set('visit_to', view.visit_to);
  if (view.sort !== 'created') params.set('sort', view.sort);
  if (view.dir !== defaultDirection(view.sort)) params.set('dir', view.dir);
  return params;
}

/** The created-date range is usable: no end before its start. */
export const validRange = (view: Pick<LeadListView, 'created_from' | 'created_to'>) =>
  !view.created_from || !view.created_to || view.created_from <= view.created_to;

export const getLeads = (view: LeadListView) => {
  const params = leadFilterParams(view);
  params.set('page', String(view.page));
  params.set('page_size', String(PAGE_SIZE));
  return apiRequest<LeadListResponse>('GET', `/api/leads?${params.toString()}`);
};

export const leadsQueryOptions = (view: LeadListView) =>
  queryOptions({
    queryKey: queryKeys.leads.list(view),
    queryFn: () => getLeads(view),
    // Keep the current rows on screen while the next search or page loads.
    placeholderData: keepPreviousData,
    // A range ending before it starts is shown as an error under the dates, not asked for.
    enabled: validRange(view),
  });

export const useLeads = (view: LeadListView) => useQuery(leadsQueryOptions(view));

/** The CSV export of just these leads, in the list's order. */
export function exportSelectedHref(ids: readonly string[], view: Pick<LeadListView, 'sort' | 'dir'>): string {
  const order = new URLSearchParams();
  if (view.sort !== 'created') order.set('sort', view.sort);
  if (view.dir !== defaultDirection(view.sort)) order.set('dir', view.dir);
  // Commas left bare: a uuid list stays short (the server reads at most 16 KB of request line and headers).
  return `/api/leads/export?ids=${ids.join(',')}${order.size > 0 ? `&${order.toString()}` : ''}`;
}
