import * as z from 'zod';

/**
 * What the audit log records. One name per kind of act; the Audit log page filters by them
 * and shows each with its label.
 */
export const AUDIT_ACTIONS = {
  sign_in: 'Signed in',
  sign_in_failed: 'Failed sign-in',
  two_factor_failed: 'Wrong two-factor code',
  sign_out: 'Signed out',
  session_ended: 'Ended a session',
  first_owner_created: 'Created the first owner',
  account_created: 'Created an account',
  password_changed: 'Changed password',
  password_reset_requested: 'Asked for a password reset',
  password_reset: 'Reset password',
  email_changed: 'Changed email',
  profile_changed: 'Changed name or phone',
  two_factor_enabled: 'Turned on two-factor',
  two_factor_disabled: 'Turned off two-factor',
  recovery_codes_regenerated: 'New recovery codes',
  recovery_code_used: 'Used a recovery code',
  invite_sent: 'Invited',
  invite_revoked: 'Withdrew an invitation',
  invite_accepted: 'Accepted an invitation',
  role_changed: 'Changed a role',
  account_deactivated: 'Deactivated an account',
  account_reactivated: 'Reactivated an account',
  account_removed: 'Removed an account',
  lead_created: 'Created a lead',
  lead_updated: 'Updated a lead',
  lead_deleted: 'Deleted a lead',
  leads_merged: 'Merged leads',
  lead_exported: 'Exported a lead’s data',
  lead_erased: 'Erased a lead',
  leads_exported: 'Exported leads (CSV)',
  leads_imported: 'Imported leads',
  appointment_created: 'Scheduled an appointment',
  appointment_updated: 'Updated an appointment',
  appointment_deleted: 'Deleted an appointment',
  appointments_bulk_cancelled: 'Cancelled website bookings in bulk',
  settings_changed: 'Changed settings',
  backup: 'Made a backup',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const auditActionSchema = z.enum(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]]).meta({ id: 'AuditAction' });

/** What an entry is about. */
export const AUDIT_TARGETS = ['account', 'invite', 'lead', 'appointment', 'settings', 'backup'] as const;
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

/** A change of one field: its value before and after (values as JSON). */
export type FieldChange = { from: unknown; to: unknown };

export const auditEntrySchema = z
  .object({
    id: z.string(),
    at: z.string(),
    actor_id: z.string().nullable(),
    actor_email: z.string().nullable(),
    /** The actor's name: their account's now, or (a removed account) theirs then; null for the system or someone not signed in (actor_email says who tried). */
    actor_name: z.string().nullable(),
    action: auditActionSchema,
    target_type: z.string().nullable(),
    target_id: z.string().nullable(),
    /** For a lead or an appointment: whether it still exists (the page links to it). */
    target_exists: z.boolean(),
    details: z.record(z.string(), z.unknown()),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-24');

/** The Audit log page's filters: a person (an account id, or `system`), an action, a date range (business time zone). */
export const auditQuerySchema = z.object({
  actor: z.union([z.uuid(), z.literal('system')]).optional(),
  action: auditActionSchema.optional(),
  from: day.optional(),
  to: day.optional(),
  /** The id of the last entry already shown: the next page starts after it. */
  cursor: z
    .string()
    .regex(/^\d{1,19}$/, 'Invalid cursor')
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditPageSchema = z
  .object({ entries: z.array(auditEntrySchema), next_cursor: z.string().nullable() })
  .meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof auditPageSchema>;
