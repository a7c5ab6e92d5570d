import type { FieldErrors, Resolver } from 'react-hook-form';
import { LEAD_STATUSES, PROPERTY_TYPES, PROPERTY_TYPE_LABELS, type LeadStatus } from '#shared/constants';
import { leadFieldsSchema, type LeadDetail, type LeadFields, type UpdateLeadRequest } from '#shared/schemas/lead';

/** What the Add Lead inputs hold: the select holds one type, the contract wants an array. */
export type LeadFormValues = { full_name: string; email: string; phone: string; property_type: string; message: string };
/** The Edit Lead form adds Contacted (Yes/No) and Status. */
export type EditLeadFormValues = LeadFormValues & { contacted: 'yes' | 'no'; status: LeadStatus };
export type EditLeadFields = LeadFields & { contacted: boolean; status: LeadStatus };

export const EMPTY_LEAD_FORM: LeadFormValues = { full_name: '', email: '', phone: '', property_type: '', message: '' };
export const PROPERTY_TYPE_OPTIONS = PROPERTY_TYPES.map((value) => ({ value, label: PROPERTY_TYPE_LABELS[value] }));
export const STATUS_OPTIONS = LEAD_STATUSES;

const FORM_FIELDS = ['full_name', 'email', 'phone', 'property_type', 'message'] as const;
type FormField = (typeof FORM_FIELDS)[number];

/** A contract field name ("property_types") as the form's field ("property_type"). */
export function toFormField(key: string): FormField | undefined {
  const field = key === 'property_types' ? 'property_type' : key;
  return (FORM_FIELDS as readonly string[]).includes(field) ? (field as FormField) : undefined;
}

function parseLeadFields(values: LeadFormValues) {
  return leadFieldsSchema.safeParse({
    full_name: values.full_name,
    email: values.email,
    phone: values.phone,
    property_types: values.property_type === '' ? [] : [values.property_type],
    message: values.message,
  });
}

function toFieldErrors<T extends LeadFormValues>(issues: readonly { path: PropertyKey[]; message: string; code: string }[]): FieldErrors<T> {
  const errors: Record<string, { type: string; message: string }> = {};
  for (const issue of issues) {
    const field = toFormField(String(issue.path[0] ?? ''));
    if (field && !errors[field]) errors[field] = { type: issue.code, message: issue.message };
  }
  return errors as FieldErrors<T>;
}

/** Validates the Add Lead form with the shared contract (spec section 5 messages) and hands the request to submit. */
export const leadFormResolver: Resolver<LeadFormValues, unknown, LeadFields> = (values) => {
  const parsed = parseLeadFields(values);
  return parsed.success ? { values: parsed.data, errors: {} } : { values: {}, errors: toFieldErrors<LeadFormValues>(parsed.error.issues) };
};

export const editLeadFormResolver: Resolver<EditLeadFormValues, unknown, EditLeadFields> = (values) => {
  const parsed = parseLeadFields(values);
  if (!parsed.success) return { values: {}, errors: toFieldErrors<EditLeadFormValues>(parsed.error.issues) };
  return { values: { ...parsed.data, contacted: values.contacted === 'yes', status: values.status }, errors: {} };
};

/** The Edit Lead form's starting values, from the lead as the server sent it. */
export function toEditFormValues(lead: LeadDetail): EditLeadFormValues {
  return {
    full_name: lead.full_name,
    email: lead.email,
    phone: lead.phone,
    property_type: lead.property_types[0] ?? '',
    message: lead.message ?? '',
    contacted: lead.contacted ? 'yes' : 'no',
    status: lead.status,
  };
}

/**
 * Only the fields that differ from what the form started with, so the PATCH does not write
 * back values someone else changed meanwhile. Empty when nothing changed.
 */
export function buildLeadPatch(initial: EditLeadFormValues, next: EditLeadFields): UpdateLeadRequest {
  const patch: UpdateLeadRequest = {};
  if (next.full_name !== initial.full_name.trim()) patch.full_name = next.full_name;
  if (next.email !== initial.email.trim().toLowerCase()) patch.email = next.email;
  if (next.phone !== initial.phone.trim()) patch.phone = next.phone;
  if (next.property_types[0] !== initial.property_type) patch.property_types = next.property_types;
  if ((next.message ?? '') !== initial.message.trim()) patch.message = next.message ?? '';
  if (next.contacted !== (initial.contacted === 'yes')) patch.contacted = next.contacted;
  if (next.status !== initial.status) patch.status = next.status;
  return patch;
}
