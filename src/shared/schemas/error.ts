import * as z from 'zod';
import { leadImportResultSchema } from './lead-import.ts';

/** Every failure from the API has this one shape, with one of these codes (docs/conventions.md, "Errors"). */
export const ERROR_CODES = {
  validation_failed: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** PUBLIC_URL is set and the request named another host (DNS rebinding). */
  misdirected_request: 421,
  unprocessable: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

export const errorResponseSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      requestId: z.string().optional(),
      fields: z.record(z.string(), z.string()).optional(),
      /** With a 409 for a booked time: the open times of that day now, to pick again. */
      slots: z.array(z.string()).optional(),
      /** With a 409 for an appointment over others: the ones it overlaps. */
      conflicts: z
        .array(z.object({ id: z.string(), date: z.string(), time: z.string(), type: z.string(), lead_name: z.string().nullable() }))
        .optional(),
      /** With a 409 for an appointment: its time is busy in the host's outside calendar. */
      busy_outside: z.boolean().optional(),
      /** With a 400 for a lead import with rows in error: the report (nothing was stored). */
      import_report: leadImportResultSchema.optional(),
    }),
  })
  .meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** First message per field, keyed by the dotted path ("property_types", "email"). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}
