import { DEFAULT_BOOKING_SETTINGS, type BookingSettings } from '#shared/schemas/booking';

/**
 * Booking open every day 9 to 5 with no notice (otherwise the defaults: 30-minute slots, no
 * buffer, 30 days ahead, Call and Zoom): for tests and benchmarks that must not depend on the
 * day or the hour they run.
 */
export const OPEN_EVERY_DAY: BookingSettings = {
  ...DEFAULT_BOOKING_SETTINGS,
  hours: Array.from({ length: 7 }, () => ({ start: '09:00', end: '17:00' })),
  min_notice_hours: 0,
};

/**
 * Working hours for the account that takes website calls in tests: the firm's hours, federal
 * holidays worked too, so that tests booking "the day after tomorrow" pass on any date
 * (PUT /api/account/availability with the account's cookie).
 */
export const WORKS_EVERY_DAY = { bookable: true, hours: null, days_off: [], holidays_off: false };
