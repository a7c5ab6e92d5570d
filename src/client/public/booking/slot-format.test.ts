import { describe, expect, it } from 'vitest';
import { businessTime, clockLabel, dayLabel, groupByDay, localTime, whenLabel, zoneName } from './slot-format.ts';

const NY = 'America/New_York';

describe('slot formatting', () => {
  it('groups times by their business date, in order', () => {
    const days = groupByDay(['2026-11-24T09:00:00-05:00', '2026-11-24T09:30:00-05:00', '2026-11-25T10:00:00-05:00']);
    expect([...days.keys()]).toEqual(['2026-11-24', '2026-11-25']);
    expect(days.get('2026-11-24')).toHaveLength(2);
  });

  it('labels times on the business clock, with the visitor’s clock only when it differs', () => {
    const slot = '2026-11-24T10:00:00-05:00';
    expect(dayLabel('2026-11-24')).toBe('Tue, Nov 24');
    expect(businessTime(slot, NY)).toBe('10:00 AM');
    expect(zoneName(slot, NY)).toBe('EST');
    expect(whenLabel(slot, NY, NY)).toBe('Tuesday, November 24 at 10:00 AM EST');
    expect(localTime(slot, NY, NY)).toBeUndefined();
    expect(localTime(slot, NY, 'America/Chicago')).toBe('9:00 AM your time');
    expect(localTime(slot, NY, 'Asia/Tokyo')).toBe('Wed 12:00 AM your time');
  });

  it('says a booked time on the visitor’s clock first, the firm’s beside it, and once when they agree', () => {
    const slot = '2026-11-24T10:00:00-05:00';
    expect(whenLabel(slot, NY, 'America/Los_Angeles')).toBe('Tuesday, November 24 at 7:00 AM PST (10:00 AM EST)');
    expect(whenLabel(slot, NY, 'America/Detroit')).toBe('Tuesday, November 24 at 10:00 AM EST');
    expect(clockLabel(slot, NY, 'America/Chicago')).toBe('9:00 AM CST (10:00 AM EST)');
  });
});
