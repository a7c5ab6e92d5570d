import { ApiError } from '#client/lib/api-client.ts';
import { toFormField, type LeadFormErrors } from '#client/lib/lead-form.ts';

/** A 400's field messages, keyed by the lead form's inputs (others are dropped); undefined when none matched. */
export function serverLeadFieldErrors(error: unknown): LeadFormErrors | undefined {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.fields) return undefined;
  const errors: LeadFormErrors = {};
  for (const [key, message] of Object.entries(error.fields)) {
    const field = toFormField(key);
    if (field) errors[field] = message;
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}
