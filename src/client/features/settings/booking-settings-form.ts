import { BOOKABLE_TYPES, BOOKING_LIMITS, type BookableType } from '#shared/constants';
import type { BookingSettings } from '#shared/schemas/booking';
import { isCalendarDate, isClockTime } from '#shared/rules/calendar';
import { clockMinutes } from '#shared/zoned-time';
import { ApiError } from '#client/lib/api-client.ts';

/*
 * The Booking settings form's values and its check in the browser. The page does not load zod
 * (the shared schema, bookingSettingsSchema in src/shared/schemas/booking.ts, checks the same
 * request on the server); this check gives the schema's messages, and
 * booking-settings-form.test.ts proves both answer alike (docs/product-rules.md, "Validation").
 */

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** A weekday's row: its times stay while it is closed, so opening it again brings them back. */
export type DayHours = { open: boolean; start: string; end: string };

/** What the inputs hold: the numbers as typed. */
export type BookingFormValues = {
  enabled: boolean;
  hours: DayHours[];
  slot_minutes: string;
  buffer_minutes: string;
  min_notice_hours: string;
  horizon_days: string;
  types: BookableType[];
  days_off: string[];
  require_email_confirmation: boolean;
  website_hosts: BookingSettings['website_hosts'];
  website_host_ids: string[];
  visitors_choose_host: boolean;
  jitsi_links: boolean;
};

export type NumberField = 'slot_minutes' | 'buffer_minutes' | 'min_notice_hours' | 'horizon_days';

/** The number inputs, with the schema's name for each in its messages and its bounds. */
export const NUMBER_FIELDS: readonly { key: NumberField; label: string; rule: string; min: number; max: number }[] = [
  { key: 'slot_minutes', label: 'Slot length (minutes)', rule: 'Slot length', min: BOOKING_LIMITS.slot.min, max: BOOKING_LIMITS.slot.max },
  { key: 'buffer_minutes', label: 'Buffer between appointments (minutes)', rule: 'Buffer', min: 0, max: BOOKING_LIMITS.buffer.max },
  { key: 'min_notice_hours', label: 'Minimum notice (hours)', rule: 'Minimum notice', min: 0, max: BOOKING_LIMITS.noticeHours.max },
  { key: 'horizon_days', label: 'How far ahead (days)', rule: 'Booking window', min: 1, max: BOOKING_LIMITS.horizonDays.max },
];

/**
 * Messages by field: the top-level keys of the request (as the server's `fields` name them),
 * and `hours.<day>.start` / `hours.<day>.end` for one weekday's times.
 */
export type BookingFormErrors = Partial<Record<string, string>>;

const DEFAULT_DAY = { start: '09:00', end: '17:00' };

export function toFormValues(settings: BookingSettings): BookingFormValues {
  return {
    enabled: settings.enabled,
    hours: WEEKDAYS.map((_, i) => {
      const day = settings.hours[i];
      return day ? { open: true, start: day.start, end: day.end } : { open: false, ...DEFAULT_DAY };
    }),
    slot_minutes: String(settings.slot_minutes),
    buffer_minutes: String(settings.buffer_minutes),
    min_notice_hours: String(settings.min_notice_hours),
    horizon_days: String(settings.horizon_days),
    types: BOOKABLE_TYPES.filter((t) => settings.types.includes(t)),
    days_off: [...settings.days_off].sort(),
    require_email_confirmation: settings.require_email_confirmation,
    website_hosts: settings.website_hosts,
    website_host_ids: settings.website_host_ids,
    visitors_choose_host: settings.visitors_choose_host,
    jitsi_links: settings.jitsi_links,
  };
}

function checkNumber(text: string, { rule, min, max }: { rule: string; min: number; max: number }): string | undefined {
  const value = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value)) return `${rule} is required`;
  if (!Number.isInteger(value)) return `${rule} must be a whole number`;
  if (value < min) return `${rule} must be at least ${min}`;
  if (value > max) return `${rule} must be at most ${max}`;
  return undefined;
}

/** Why a day off cannot be added to `days`, if it cannot. */
export function checkDayOff(date: string, days: readonly string[]): string | undefined {
  if (!isCalendarDate(date)) return 'Invalid date';
  if (days.includes(date)) return 'Each day off once';
  if (days.length >= BOOKING_LIMITS.daysOff) return `At most ${BOOKING_LIMITS.daysOff} days off`;
  return undefined;
}

/** The request to send, or the messages to show (the schema's, word for word). */
export function checkBookingForm(
  values: BookingFormValues,
): { settings: BookingSettings; errors?: undefined } | { settings?: undefined; errors: BookingFormErrors } {
  const errors: BookingFormErrors = {};
  values.hours.forEach((day, i) => {
    if (!day.open) return;
    if (!isClockTime(day.start)) errors[`hours.${i}.start`] = 'Invalid time';
    else if (!isClockTime(day.end)) errors[`hours.${i}.end`] = 'Invalid time';
    else if (clockMinutes(day.end) <= clockMinutes(day.start)) errors[`hours.${i}.end`] = 'Closing time must be after opening time';
  });
  for (const field of NUMBER_FIELDS) {
    const message = checkNumber(values[field.key], field);
    if (message) errors[field.key] = message;
  }
  if (values.types.length === 0) errors.types = 'Choose at least one appointment type';
  if (values.days_off.some((d) => !isCalendarDate(d))) errors.days_off = 'Invalid date';
  else if (values.days_off.length > BOOKING_LIMITS.daysOff) errors.days_off = `At most ${BOOKING_LIMITS.daysOff} days off`;
  else if (new Set(values.days_off).size !== values.days_off.length) errors.days_off = 'Each day off once';
  if (values.website_hosts === 'chosen' && values.website_host_ids.length === 0) errors.website_host_ids = 'Choose at least one person';
  if (Object.keys(errors).length > 0) return { errors };
  return {
    settings: {
      enabled: values.enabled,
      hours: values.hours.map((d) => (d.open ? { start: d.start, end: d.end } : null)),
      slot_minutes: Number(values.slot_minutes),
      buffer_minutes: Number(values.buffer_minutes),
      min_notice_hours: Number(values.min_notice_hours),
      horizon_days: Number(values.horizon_days),
      types: values.types,
      days_off: values.days_off,
      require_email_confirmation: values.require_email_confirmation,
      website_hosts: values.website_hosts,
      website_host_ids: values.website_host_ids,
      visitors_choose_host: values.visitors_choose_host,
      jitsi_links: values.jitsi_links,
    },
  };
}

/** A 400's field messages (keyed by the request's top-level keys); none for any other failure. */
export function serverFieldErrors(error: unknown): BookingFormErrors {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.fields) return {};
  return { ...error.fields };
}
