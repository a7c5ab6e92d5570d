import { describe, expect, it } from 'vitest';
import { parseCsv } from '#shared/csv';
import type { Lead } from '#shared/schemas/lead';
import { LEAD_CSV_HEADER, leadCsvHeader, leadCsvRow } from './lead-csv.ts';

const lead = (l: Partial<Lead>) =>
  ({
    full_name: 'Jane Doe',
    email: 'jane@example.com',
    phone: '(301) 555-0199',
    property_types: ['multifamily'],
    status: 'New',
    contacted: false,
    created_at: '2026-03-02T09:00:00.000Z',
    message: null,
    owner_name: null,
    property_address: null,
    target_closing_date: null,
    estimated_fee_cents: null,
    follow_up_on: null,
    follow_up_note: null,
    ...l,
  }) as Lead;

describe('the leads CSV', () => {
  it('has the list’s columns', () => {
    expect(parseCsv(leadCsvHeader())).toEqual([LEAD_CSV_HEADER]);
    expect(LEAD_CSV_HEADER).toHaveLength(13);
  });

  it('writes a lead in the list’s words: the type’s label, Yes/No, the owner by name, the fee in dollars, the next step', () => {
    const row = leadCsvRow(
      lead({
        contacted: true,
        owner_name: 'Sam Staff',
        estimated_fee_cents: 150_000,
        follow_up_on: '2026-03-09',
        follow_up_note: 'Call back',
      }),
    );
    expect(parseCsv(row)[0]).toEqual([
      'Jane Doe',
      'jane@example.com',
      '(301) 555-0199',
      'Multifamily',
      'New',
      'Yes',
      '2026-03-02T09:00:00.000Z',
      '',
      'Sam Staff',
      '',
      '',
      '1500.00',
      '2026-03-09 Call back',
    ]);
    expect(parseCsv(leadCsvRow(lead({ property_types: [] })))[0]![3]).toBe('');
  });

  it('keeps cells safe from formulas', () => {
    expect(parseCsv(leadCsvRow(lead({ full_name: '=HYPERLINK("http://x")' })))[0]![0]).not.toMatch(/^=/);
  });
});
