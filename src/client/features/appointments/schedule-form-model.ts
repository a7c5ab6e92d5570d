import { checkAppointmentForm } from '#shared/rules/appointment-checks';
import type { Appointment, CreateAppointmentRequest } from '#shared/schemas/appointment';
import { ApiError } from '#client/lib/api-client.ts';
import type { FormCheck, FormErrors } from '#client/lib/use-checked-form.ts';

/** What the Schedule Appointment inputs hold; '' until chosen. */
export type ScheduleFormValues = {
  lead_id: string;
  date: string;
  time: string;
  type: string;
  notes: string;
  duration_minutes: string;
  location: string;
  /** Who takes it: a team member's id ('' = the person scheduling it). */
  host_id: string;
};

export const EMPTY_SCHEDULE_FORM: ScheduleFormValues = {
  lead_id: '',
  date: '',
  time: '',
  type: '',
  notes: '',
  duration_minutes: '30',
  location: '',
  host_id: '',
};

/** The form prefilled with an appointment, to edit or reschedule it. */
export const formOf = (a: Appointment): ScheduleFormValues => ({
  // Not sent when editing; an appointment whose lead was deleted still passes the form's check.
  lead_id: a.lead_id ?? '00000000-0000-4000-8000-000000000000',
  date: a.date,
  time: a.time,
  type: a.type,
  notes: a.notes ?? '',
  duration_minutes: String(a.duration_minutes),
  location: a.location ?? '',
  host_id: a.host_id ?? '',
});

const FIELDS = Object.keys(EMPTY_SCHEDULE_FORM) as (keyof ScheduleFormValues)[];
const isFormField = (key: string): key is keyof ScheduleFormValues => (FIELDS as string[]).includes(key);

/** Checks with the shared rules, so the messages are the server's (docs/product-rules.md, "Validation"). */
export const checkScheduleForm = (values: ScheduleFormValues): FormCheck<ScheduleFormValues, CreateAppointmentRequest> => {
  const duration = values.duration_minutes.trim();
  const checked = checkAppointmentForm({ ...values, duration_minutes: duration === '' ? undefined : Number(duration) });
  if (!checked.ok) return { ok: false, errors: checked.errors as FormErrors<ScheduleFormValues> };
  return { ok: true, value: values.host_id ? { ...checked.value, host_id: values.host_id } : checked.value };
};

/** A 400's or 422's field messages, keyed by the form's fields (others are dropped). */
export function serverFieldErrors(error: unknown): FormErrors<ScheduleFormValues> {
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 422) || !error.fields) return {};
  return Object.fromEntries(Object.entries(error.fields).filter(([key]) => isFormField(key)));
}
