import { LEAD_STATUSES, type LeadStatus } from '#shared/constants';
import type { CheckedLeadFields } from '#shared/rules/lead-fields';
import type { LeadDetail, UpdateLeadRequest } from '#shared/schemas/lead';
import { validateLeadForm, type LeadFormValues } from '#client/lib/lead-form.ts';
import type { FormCheck } from '#client/lib/use-checked-form.ts';

/** The Edit Lead form adds Contacted (Yes/No) and Status to the lead's fields. */
export type EditLeadFormValues = LeadFormValues & { contacted: 'yes' | 'no'; status: LeadStatus };
export type EditLeadFields = CheckedLeadFields & { contacted: boolean; status: LeadStatus };

export const STATUS_OPTIONS = LEAD_STATUSES;

/** Checks the Add Lead form with the shared lead-form model and hands the request to submit. */
export const checkLeadForm = (values: LeadFormValues): FormCheck<LeadFormValues, CheckedLeadFields> => {
  const result = validateLeadForm(values);
  return result.ok ? { ok: true, value: result.lead } : { ok: false, errors: result.errors };
};

export const checkEditLeadForm = (values: EditLeadFormValues): FormCheck<EditLeadFormValues, EditLeadFields> => {
  const result = validateLeadForm(values);
  if (!result.ok) return { ok: false, errors: result.errors };
  return { ok: true, value: { ...result.lead, contacted: values.contacted === 'yes', status: values.status } };
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
