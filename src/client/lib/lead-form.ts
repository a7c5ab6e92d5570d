import { PROPERTY_TYPES, PROPERTY_TYPE_LABELS } from '#shared/constants';
import { checkLeadFields, type CheckedLeadFields } from '#shared/rules/lead-fields';

/**
 * The one model of a lead form, shared by the public form and the admin's Add and Edit Lead
 * forms: what the inputs hold, their order, and how they are checked (with the rules and
 * messages the server applies, rules/lead-fields.ts).
 */

/** What the inputs hold. The select holds one property type; the request carries a list. */
export type LeadFormValues = { full_name: string; email: string; phone: string; property_type: string; message: string };
export type LeadFormField = keyof LeadFormValues;
export type LeadFormErrors = Partial<Record<LeadFormField, string>>;

export const EMPTY_LEAD_FORM: LeadFormValues = { full_name: '', email: '', phone: '', property_type: '', message: '' };

/** The fields in the order they are shown: the first with an error gets focus. */
export const LEAD_FORM_FIELDS: readonly LeadFormField[] = ['full_name', 'email', 'phone', 'property_type', 'message'];

export const PROPERTY_TYPE_OPTIONS = PROPERTY_TYPES.map((value) => ({ value, label: PROPERTY_TYPE_LABELS[value] }));

/** A request field's name as the form's ("property_types" is the select "property_type"); undefined if the form has none. */
export function toFormField(key: string): LeadFormField | undefined {
  const field = key === 'property_types' ? 'property_type' : key;
  return (LEAD_FORM_FIELDS as readonly string[]).includes(field) ? (field as LeadFormField) : undefined;
}

/** A server's field errors (a 400's `fields`) as the form's, first message per field. */
export function toFormErrors(fields: Record<string, string>): LeadFormErrors {
  const errors: LeadFormErrors = {};
  for (const [key, message] of Object.entries(fields)) {
    const field = toFormField(key);
    if (field) errors[field] ??= message;
  }
  return errors;
}

export type LeadFormValidation = { ok: true; lead: CheckedLeadFields } | { ok: false; errors: LeadFormErrors };

/** Checks the inputs: the lead to send (trimmed, email lower-cased, an empty message left out), or the form's errors. */
export function validateLeadForm(values: LeadFormValues): LeadFormValidation {
  const checked = checkLeadFields({
    full_name: values.full_name,
    email: values.email,
    phone: values.phone,
    property_types: values.property_type === '' ? [] : [values.property_type],
    message: values.message.trim() === '' ? undefined : values.message,
  });
  return checked.ok ? { ok: true, lead: checked.value } : { ok: false, errors: toFormErrors(checked.errors) };
}
