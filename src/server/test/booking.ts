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
