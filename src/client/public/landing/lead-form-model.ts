import { fieldErrors } from '#shared/schemas/error';
import { leadFieldsSchema, type LeadFields, type PublicLeadRequest } from '#shared/schemas/lead';
import { PROPERTY_TYPES, PROPERTY_TYPE_LABELS } from '#shared/constants';

/** What the inputs hold. The select holds one value; the contract wants an array. */
export type LeadFormValues = {
  full_name: string;
  email: string;
  phone: string;
  property_type: string;
  message: string;
  /** Honeypot: hidden from people, bots fill it in. */
  website: string;
};

export type LeadFormField = 'full_name' | 'email' | 'phone' | 'property_type' | 'message';
export type LeadFormErrors = Partial<Record<LeadFormField, string>>;

export const EMPTY_LEAD_FORM: LeadFormValues = {
  full_name: '',
  email: '',
  phone: '',
  property_type: '',
  message: '',
  website: '',
};

export const PROPERTY_TYPE_OPTIONS = PROPERTY_TYPES.map((value) => ({ value, label: PROPERTY_TYPE_LABELS[value] }));

/** The order errors are focused in: the first invalid field gets focus. */
export const LEAD_FORM_FIELDS: LeadFormField[] = ['full_name', 'email', 'phone', 'property_type', 'message'];

function toCandidate(values: LeadFormValues) {
  return {
    full_name: values.full_name,
    email: values.email,
    phone: values.phone,
    property_types: values.property_type === '' ? [] : [values.property_type],
    message: values.message.trim() === '' ? undefined : values.message,
  };
}

/** Server and schema speak of `property_types`; the form's input is `property_type`. */
export function toFormErrors(fields: Record<string, string>): LeadFormErrors {
  const errors: LeadFormErrors = {};
  for (const [key, message] of Object.entries(fields)) {
    const field = key === 'property_types' ? 'property_type' : key;
    if ((LEAD_FORM_FIELDS as string[]).includes(field)) errors[field as LeadFormField] ??= message;
  }
  return errors;
}

export type LeadFormValidation =
  | { ok: true; lead: LeadFields }
  | { ok: false; errors: LeadFormErrors };

/** Validates with the shared contract, so the browser shows the server's exact messages. */
export function validateLeadForm(values: LeadFormValues): LeadFormValidation {
  const parsed = leadFieldsSchema.safeParse(toCandidate(values));
  if (parsed.success) return { ok: true, lead: parsed.data };
  return { ok: false, errors: toFormErrors(fieldErrors(parsed.error)) };
}

export function buildLeadRequest(
  lead: LeadFields,
  extra: { website: string; submissionId: string; fillMs: number; analyticsSessionId?: string | undefined },
): PublicLeadRequest {
  return {
    ...lead,
    website: extra.website,
    submission_id: extra.submissionId,
    fill_ms: Math.max(0, Math.round(extra.fillMs)),
    ...(extra.analyticsSessionId ? { analytics_session_id: extra.analyticsSessionId } : {}),
  };
}

/** crypto.randomUUID exists only in secure contexts (https, localhost); fall back to a v4 UUID. */
export function newSubmissionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Milliseconds since `start` (a performance.now() value); 0 when the start is unknown. */
export function msSince(start: number | null): number {
  const now = performance.now();
  return now - (start ?? now);
}
