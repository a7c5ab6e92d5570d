import { describe, expect, it } from 'vitest';
import { DATE_RANGE_MESSAGE } from '#shared/schemas/lead';
import { utmValue } from '#shared/source-label';
import { leadFiltersOf, type LeadQuery } from './lead-filters.ts';
import { refusalOfCall } from '../test/refusal.ts';

const asking = { userId: '00000000-0000-4000-8000-0000000000aa', timeZone: 'America/New_York' };
const query = (q: Partial<LeadQuery> = {}): LeadQuery => ({ sort: 'created', ...q });

describe('leadFiltersOf', () => {
  it('reads `me` as the admin asking, `none` as unassigned, an id as that admin, and nothing as anyone', () => {
    expect(leadFiltersOf(query({ owner: 'me' }), asking).filters.owner).toBe(asking.userId);
    expect(leadFiltersOf(query({ owner: 'none' }), asking).filters.owner).toBeNull();
    const other = '00000000-0000-4000-8000-0000000000bb';
    expect(leadFiltersOf(query({ owner: other }), asking).filters.owner).toBe(other);
    expect(leadFiltersOf(query(), asking).filters).not.toHaveProperty('owner');
  });

  it('passes the search and filters on, with the business time zone for the days, and the ids when named', () => {
    const { filters } = leadFiltersOf(
      query({ search: 'jane', status: 'New', created_from: '2026-01-01', created_to: '2026-01-31', ids: ['x'] }),
      asking,
    );
    expect(filters).toMatchObject({
      search: 'jane',
      status: 'New',
      created_from: '2026-01-01',
      created_to: '2026-01-31',
      timeZone: 'America/New_York',
      ids: ['x'],
    });
    expect(leadFiltersOf(query(), asking).filters).not.toHaveProperty('ids');
  });

  it('is newest first unless asked; a column’s first click is A to Z, earliest first', () => {
    expect(leadFiltersOf(query(), asking).order).toEqual({ sort: 'created', dir: 'desc' });
    expect(leadFiltersOf(query({ sort: 'name' }), asking).order).toEqual({ sort: 'name', dir: 'asc' });
    expect(leadFiltersOf(query({ sort: 'next_step' }), asking).order).toEqual({ sort: 'next_step', dir: 'asc' });
    expect(leadFiltersOf(query({ sort: 'created', dir: 'asc' }), asking).order).toEqual({ sort: 'created', dir: 'asc' });
  });

  it('refuses a created range that ends before it starts, and a campaign that is not one', () => {
    expect(refusalOfCall(() => leadFiltersOf(query({ created_from: '2026-02-01', created_to: '2026-01-31' }), asking))).toEqual({
      status: 400,
      message: DATE_RANGE_MESSAGE,
      fields: { created_to: DATE_RANGE_MESSAGE },
    });
    expect(() => leadFiltersOf(query({ created_from: '2026-01-31', created_to: '2026-01-31' }), asking)).not.toThrow();
    expect(refusalOfCall(() => leadFiltersOf(query({ origin: 'utm', origin_value: 'spring' }), asking))).toEqual({
      status: 400,
      message: 'Invalid campaign',
      fields: { origin_value: 'Invalid campaign' },
    });
    expect(() => leadFiltersOf(query({ origin: 'utm', origin_value: utmValue('news', 'email', 'spring') }), asking)).not.toThrow();
  });
});
