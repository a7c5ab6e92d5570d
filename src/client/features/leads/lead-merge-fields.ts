import { MERGE_FIELDS, type MergeField } from '#shared/constants';
import { propertyTypesLabel } from '#shared/property-type-label';
import type { Lead } from '#shared/schemas/lead';
import { formatDate } from '#client/lib/format.ts';

/** The merge chooser's fields: each one's label, and how a lead's value of it reads. */

const none = 'None';
const dollars = (cents: number) => (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });

/** A lead's value of a merge field as the chooser shows it. */
export function mergeFieldText(field: MergeField, lead: Lead): string {
  switch (field) {
    case 'full_name':
      return lead.full_name;
    case 'phone':
      return lead.phone;
    case 'property_types':
      return propertyTypesLabel(lead.property_types) || none;
    case 'status':
      return lead.status;
    case 'owner_id':
      return lead.owner_name ?? 'Nobody';
    case 'property_address':
      return lead.property_address ?? none;
    case 'target_closing_date':
      return lead.target_closing_date ? formatDate(lead.target_closing_date) : none;
    case 'estimated_fee_cents':
      return lead.estimated_fee_cents === null ? none : dollars(lead.estimated_fee_cents);
  }
}

/** The fields whose values differ between the two leads (the only ones to choose), with their labels. */
export function differingFields(self: Lead, other: Lead): { field: MergeField; label: string }[] {
  return MERGE_FIELDS.filter(([field]) => mergeFieldText(field, self) !== mergeFieldText(field, other)).map(([field, label]) => ({
    field,
    label,
  }));
}
