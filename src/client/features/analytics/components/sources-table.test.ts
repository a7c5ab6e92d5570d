import { describe, expect, it } from 'vitest';
import { parseCsv } from '#shared/csv';
import { utmValue } from '#shared/schemas/analytics-report';
import { sourceLabel } from '#shared/source-label';
import { sourcesCsv } from './sources-table.tsx';

describe('sourceLabel', () => {
  it('names each kind of row', () => {
    expect(sourceLabel('referrer', 'Direct')).toBe('Direct');
    expect(sourceLabel('referrer', 'google.com')).toBe('google.com');
    expect(sourceLabel('utm', utmValue('google', 'cpc', ''))).toBe('google / cpc / –');
    expect(sourceLabel('utm', utmValue('', '', ''))).toBe('No campaign');
    expect(sourceLabel('landing', '/privacy')).toBe('/privacy');
    expect(sourceLabel('offline', '')).toBe('Offline / entered by staff');
    expect(sourceLabel('unrecorded', '')).toBe('Website, visit not recorded');
  });
});

describe('sourcesCsv', () => {
  it('writes what the table shows, fees in dollars, and defuses a formula in a campaign name', () => {
    const csv = sourcesCsv({
      from: '2026-11-01',
      to: '2026-11-07',
      group: 'utm',
      rows: [
        {
          origin: 'utm',
          value: utmValue('=HYPERLINK("x")', 'email', 'spring, "big"'),
          visitors: 10,
          leads: 2,
          bookings: 1,
          converted: 1,
          conversion_rate: 10,
          fees_cents: 123_456,
        },
        { origin: 'offline', value: '', visitors: 0, leads: 1, bookings: 0, converted: 0, conversion_rate: null, fees_cents: 0 },
      ],
    });
    expect(parseCsv(csv)).toEqual([
      ['Campaign (UTM)', 'Visitors', 'Leads', 'Bookings', 'Clients', 'Visitor to client (%)', 'Fees won (USD)', 'From', 'To'],
      [`'=HYPERLINK("x") / email / spring, "big"`, '10', '2', '1', '1', '10', '1234.56', '2026-11-01', '2026-11-07'],
      ['Offline / entered by staff', '0', '1', '0', '0', '', '0.00', '2026-11-01', '2026-11-07'],
    ]);
  });
});
