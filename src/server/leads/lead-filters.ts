import { parseUtmValue } from '#shared/schemas/analytics-report';
import { DATE_RANGE_MESSAGE, type LeadExportQuery } from '#shared/schemas/lead';
import type { LeadFilters, LeadOrder } from '../db/queries/lead-list-queries.ts';
import { AppError } from '../lib/app-error.ts';

/** The list's and the export's query (the export may name leads by id). */
export type LeadQuery = Omit<LeadExportQuery, 'ids'> & { ids?: string[] | undefined };

/**
 * The leads list's query as the database reads it (GET /api/leads and its CSV export): `me` is
 * the admin asking (`userId`), `none` unassigned, the days in the business time zone; a created
 * range that ends before it starts, or a campaign that is not one, is 400. Newest first unless
 * asked; a column's first click is A to Z, earliest first.
 */
export function leadFiltersOf(query: LeadQuery, asking: { userId: string; timeZone: string }): { filters: LeadFilters; order: LeadOrder } {
  refuseBadFilters(query);
  const owner = ownerFilter(query.owner, asking.userId);
  const filters: LeadFilters = {
    search: query.search,
    status: query.status,
    property_type: query.property_type,
    created_from: query.created_from,
    created_to: query.created_to,
    origin: query.origin,
    origin_value: query.origin_value,
    visit_from: query.visit_from,
    visit_to: query.visit_to,
    timeZone: asking.timeZone,
    ...(owner !== undefined && { owner }),
    ...(query.ids && { ids: query.ids }),
  };
  const dir = query.dir ?? (query.sort === 'created' ? 'desc' : 'asc');
  return { filters, order: { sort: query.sort, dir } };
}

/** The filters the leads list and the board share, refused with 400: a created range that ends before it starts, a campaign that is not one. */
export function refuseBadFilters(query: { created_from?: string; created_to?: string; origin?: string; origin_value?: string }): void {
  if (query.created_from && query.created_to && query.created_from > query.created_to) {
    throw new AppError('validation_failed', DATE_RANGE_MESSAGE, { created_to: DATE_RANGE_MESSAGE });
  }
  if (query.origin === 'utm' && !parseUtmValue(query.origin_value ?? '')) {
    throw new AppError('validation_failed', 'Invalid campaign', { origin_value: 'Invalid campaign' });
  }
}

/** An owner filter as the database reads it: `me` is the admin asking, `none` unassigned (null), undefined no filter. */
export const ownerFilter = (owner: string | undefined, userId: string): string | null | undefined =>
  owner === 'me' ? userId : owner === 'none' ? null : owner;
