import * as z from 'zod';
import { AUDIT_ACTIONS, type AuditAction } from '../constants.ts';

export { AUDIT_ACTIONS };
export type { AuditAction };

export const auditActionSchema = z.enum(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]]).meta({ id: 'AuditAction' });

/** What an entry is about. */
export const AUDIT_TARGETS = ['account', 'invite', 'lead', 'appointment', 'settings', 'backup', 'api_key'] as const;
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
    /** The API key the actor acted through (its name), or null for a session. */
    api_key_name: z.string().nullable(),
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
