import { APPOINTMENT_TYPES, BOOKING_LIMITS, LIMITS, type AppointmentType } from '../constants.ts';
import { isCalendarDate, isClockTime } from './calendar.ts';
import { storableTextError } from './text-checks.ts';

/**
 * The Schedule Appointment form's rules, checked without zod: the admin app's forms run
 * these, and schemas/appointment.ts builds the server's schema with the same messages. A
 * property test (rules.test.ts) holds the two to the same answer.
 */
export const APPOINTMENT_MESSAGES = {
  lead: 'Please select a lead',
  date: { required: 'Date is required', invalid: 'Invalid date' },
  time: { required: 'Time is required', invalid: 'Invalid time' },
  type: 'Appointment type is required',
  notes: `Notes must be at most ${LIMITS.message} characters`,
  location: `Location must be at most ${BOOKING_LIMITS.location} characters`,
  duration: {
    required: 'Duration is required',
    whole: 'Duration must be a whole number of minutes',
    min: `Duration must be at least ${BOOKING_LIMITS.duration.min} minutes`,
    max: `Duration must be at most ${BOOKING_LIMITS.duration.max} minutes`,
  },
} as const;

/** An RFC 9562 UUID, as the server's `z.uuid()` accepts it (any version 1-8, the nil and max ids). */
export const UUID_PATTERN =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

export type AppointmentFormInput = {
  lead_id?: string;
  date?: string;
  time?: string;
  type?: string;
  notes?: string | null;
  duration_minutes?: number;
  location?: string | null;
};
export type CheckedAppointment = {
  lead_id: string;
  date: string;
  time: string;
  type: AppointmentType;
  notes?: string | null;
  duration_minutes?: number;
  location?: string | null;
};
export type AppointmentFieldErrors = Partial<Record<keyof AppointmentFormInput, string>>;

type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** A day or a clock time: required, storable, then its format. */
function checkMoment(input: unknown, messages: { required: string; invalid: string }, valid: (s: string) => boolean): Checked<string> {
  if (typeof input !== 'string') return { ok: false, error: messages.required };
  const unstorable = storableTextError(input);
  if (unstorable) return { ok: false, error: unstorable };
  const text = input.trim();
  if (text.length === 0) return { ok: false, error: messages.required };
  return valid(text) ? { ok: true, value: text } : { ok: false, error: messages.invalid };
}

/** Optional text with a limit: absent or null stays so; otherwise trimmed. */
function checkOptionalText(input: string | null | undefined, max: number, message: string): Checked<string | null | undefined> {
  if (input === undefined || input === null) return { ok: true, value: input };
  const unstorable = storableTextError(input);
  if (unstorable) return { ok: false, error: unstorable };
  const text = input.trim();
  return [...text].length > max ? { ok: false, error: message } : { ok: true, value: text };
}

function checkDuration(input: number | undefined): Checked<number | undefined> {
  const { duration } = APPOINTMENT_MESSAGES;
  if (input === undefined) return { ok: true, value: undefined };
  if (typeof input !== 'number' || Number.isNaN(input)) return { ok: false, error: duration.required };
  if (!Number.isFinite(input)) return { ok: false, error: duration.required };
  if (!Number.isSafeInteger(input)) return { ok: false, error: duration.whole };
  if (input < BOOKING_LIMITS.duration.min) return { ok: false, error: duration.min };
  if (input > BOOKING_LIMITS.duration.max) return { ok: false, error: duration.max };
  return { ok: true, value: input };
}

function checkLead(input: unknown): Checked<string> {
  const message = APPOINTMENT_MESSAGES.lead;
  if (typeof input !== 'string' || input.length === 0) return { ok: false, error: message };
  const unstorable = storableTextError(input);
  if (unstorable) return { ok: false, error: unstorable };
  return UUID_PATTERN.test(input) ? { ok: true, value: input } : { ok: false, error: message };
}

const isAppointmentType = (value: unknown): value is AppointmentType => (APPOINTMENT_TYPES as readonly unknown[]).includes(value);

/** The browser's check of the Schedule Appointment form: the request to send, or the first message for each field that fails. */
export function checkAppointmentForm(
  input: AppointmentFormInput,
): { ok: true; value: CheckedAppointment } | { ok: false; errors: AppointmentFieldErrors } {
  const { date, time } = APPOINTMENT_MESSAGES;
  const fields = {
    lead_id: checkLead(input.lead_id),
    date: checkMoment(input.date, date, isCalendarDate),
    time: checkMoment(input.time, time, isClockTime),
    type: isAppointmentType(input.type)
      ? ({ ok: true, value: input.type } as const)
      : ({ ok: false, error: APPOINTMENT_MESSAGES.type } as const),
    notes: checkOptionalText(input.notes, LIMITS.message, APPOINTMENT_MESSAGES.notes),
    duration_minutes: checkDuration(input.duration_minutes),
    location: checkOptionalText(input.location, BOOKING_LIMITS.location, APPOINTMENT_MESSAGES.location),
  };
  const errors: AppointmentFieldErrors = {};
  for (const [key, result] of Object.entries(fields)) if (!result.ok) errors[key as keyof AppointmentFormInput] = result.error;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const value = Object.fromEntries(Object.entries(fields).map(([key, result]) => [key, (result as { value: unknown }).value]));
  return { ok: true, value: value as CheckedAppointment };
}
