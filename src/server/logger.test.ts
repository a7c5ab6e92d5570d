import { describe, expect, it } from 'vitest';
import { redactPath } from './logger.ts';

describe('redactPath', () => {
  it('hides the token of a calendar feed and of a booking link, in the page and API paths', () => {
    expect(redactPath('/api/calendar/abc_DEF-123/appointments.ics')).toBe('/api/calendar/***/appointments.ics');
    expect(redactPath('/booking/Zm9vYmFyYmF6')).toBe('/booking/***');
    expect(redactPath('/api/public/bookings/Zm9vYmFyYmF6')).toBe('/api/public/bookings/***');
    // A held booking's confirmation link: the token and the code.
    expect(redactPath('/booking/Zm9vYmFyYmF6/confirm/c2VjcmV0Y29kZQ')).toBe('/booking/***');
    expect(redactPath('/api/public/bookings/Zm9vYmFyYmF6/confirm')).toBe('/api/public/bookings/***/confirm');
  });

  it('leaves paths without a secret as they are', () => {
    for (const path of ['/', '/api/public/bookings', '/api/public/availability', '/booking', '/api/leads/7f1c', '/dashboard/calendar']) {
      expect(redactPath(path)).toBe(path);
    }
  });
});
