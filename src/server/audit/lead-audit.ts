import { changedFields } from '../db/queries/audit-log-queries.ts';

/** What of a lead the audit log records when it changes: the fields a person can edit. */
export const LEAD_AUDIT_FIELDS = [
  'full_name',
  'email',
  'phone',
  'property_types',
  'message',
  'status',
  'stage_name',
  'lost_reason',
  'contacted',
  'owner_id',
  'property_address',
  'target_closing_date',
  'estimated_fee_cents',
  'follow_up_on',
  'follow_up_note',
] as const;

export const APPOINTMENT_AUDIT_FIELDS = ['date', 'time', 'type', 'status', 'notes', 'duration_minutes', 'location', 'lead_id'] as const;

export const leadChanges = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  changedFields(before, after, LEAD_AUDIT_FIELDS);
export const appointmentChanges = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  changedFields(before, after, APPOINTMENT_AUDIT_FIELDS);

export { ERASED } from '../db/queries/audit-log-queries.ts';
