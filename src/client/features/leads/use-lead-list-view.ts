import { useCallback, useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useRouterLocationNow } from '#client/lib/use-router-location-now.ts';
import { LEAD_ORIGINS, LEAD_SORTS, LEAD_STATUSES, type LeadSort, ORIGIN_VALUE_MAX, PROPERTY_TYPES } from '#shared/constants';
import { defaultDirection, type LeadListView, type SortDirection } from './api/get-leads.ts';

export const SEARCH_DEBOUNCE_MS = 300;

const oneOf = (values: readonly string[], value: string | null) => (value !== null && values.includes(value) ? value : '');

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const day = (value: string | null) => (value !== null && DAY.test(value) ? value : '');

/** The view from the URL; unknown values count as "no filter" (or the default order) rather than failing the list. */
function readView(params: URLSearchParams): LeadListView {
  const page = Number.parseInt(params.get('page') ?? '', 10);
  const owner = params.get('owner') ?? '';
  const sort = (oneOf(LEAD_SORTS, params.get('sort')) || 'created') as LeadSort;
  const dir = (oneOf(['asc', 'desc'], params.get('dir')) || defaultDirection(sort)) as SortDirection;
  return {
    search: (params.get('search') ?? '').trim(),
    status: oneOf(LEAD_STATUSES, params.get('status')),
    property_type: oneOf(PROPERTY_TYPES, params.get('property_type')),
    owner: owner === 'me' || owner === 'none' || UUID.test(owner) ? owner : '',
    created_from: day(params.get('created_from')),
    created_to: day(params.get('created_to')),
    origin: oneOf(LEAD_ORIGINS, params.get('origin')),
    origin_value: (params.get('origin_value') ?? '').slice(0, ORIGIN_VALUE_MAX),
    visit_from: day(params.get('visit_from')),
    visit_to: day(params.get('visit_to')),
    sort,
    dir,
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/**
 * The Leads Manager's search, filters, sort and page live in the URL, so a view can be shared
 * and survives a reload and the back button. The search box writes to the URL after a pause
 * in typing. The default order (newest first) is left out of the URL.
 */
export function useLeadListView() {
  const [params, setParams] = useSearchParams();
  const view = readView(params);
  const [searchText, setSearchText] = useState(view.search);
  // The last search this hook wrote: a URL change other than ours (back button, a shared
  // link) replaces the box's text; ours must not, or a keystroke typed meanwhile is lost.
  const [written, setWritten] = useState<string | null>(null);
  const [seenSearch, setSeenSearch] = useState(view.search);
  if (seenSearch !== view.search) {
    setSeenSearch(view.search);
    if (view.search === written) setWritten(null);
    else setSearchText(view.search);
  }

  const update = useCallback(
    (changes: Partial<Record<keyof LeadListView, string>>, replace = false) => {
      const apply = (previous: URLSearchParams) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        // A new search or filter starts again at the first page.
        if (!('page' in changes)) next.delete('page');
        return next;
      };
      void setParams(apply, { replace });
    },
    [setParams],
  );

  const wanted = searchText.trim();
  const location = useLocation();
  const routerLocationNow = useRouterLocationNow();
  useEffect(() => {
    if (wanted === view.search) return;
    const shown = `${location.pathname}${location.search}`;
    const timer = setTimeout(() => {
      // The person may have left meanwhile: a link clicked starts a navigation that React
      // renders as a transition, keeping this page (and this timer) alive while the next page
      // loads. Writing the search now would take them back to the list, so it is dropped.
      const now = routerLocationNow();
      if (now && `${now.pathname}${now.search}` !== shown) return;
      setWritten(wanted);
      update({ search: wanted }, true);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [wanted, view.search, update, location.pathname, location.search, routerLocationNow]);

  return {
    view,
    searchText,
    setSearchText,
    setStatus: (status: string) => update({ status }),
    setPropertyType: (property_type: string) => update({ property_type }),
    setOwner: (owner: string) => update({ owner }),
    setCreatedFrom: (created_from: string) => update({ created_from }),
    setCreatedTo: (created_to: string) => update({ created_to }),
    /** Shows every lead again after arriving from a row of the Analytics sources table. */
    clearOrigin: () => update({ origin: '', origin_value: '', visit_from: '', visit_to: '' }),
    /** Orders by a column in the given direction; a new order starts again at the first page. */
    setSort: (sort: LeadSort, dir: SortDirection) =>
      update({ sort: sort === 'created' ? '' : sort, dir: dir === defaultDirection(sort) ? '' : dir }),
    setPage: (page: number) => update({ page: page > 1 ? String(page) : '' }),
  };
}
