import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '#client/lib/api-client.ts';
import { toFormField } from '#client/lib/lead-form.ts';

/** Puts a 400's field messages under the matching inputs; returns whether any matched. */
export function showServerFieldErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>): boolean {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.fields) return false;
  let shown = false;
  for (const [key, message] of Object.entries(error.fields)) {
    const field = toFormField(key);
    if (!field) continue;
    setError(field as Path<T>, { type: 'server', message });
    shown = true;
  }
  return shown;
}
