import * as z from 'zod';
import { LOGIN_RULES } from '../rules/login.ts';
import { CONFIRM_REQUIRED, PASSWORDS_DIFFER } from '../rules/new-password.ts';
import { PROFILE_RULES } from '../rules/profile.ts';
import { roleSchema } from './auth.ts';
import { zodText } from './text.ts';

/** The team page's contract: people, invitations, and what an owner changes. */

export const teamMemberSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    display_name: z.string(),
    phone: z.string().nullable(),
    role: roleSchema,
    created_at: z.string(),
    last_sign_in_at: z.string().nullable(),
    two_factor: z.boolean(),
    /** When the account was deactivated; null while active. */
    deactivated_at: z.string().nullable(),
    /** Leads this person owns (what "reassign" moves). */
    owned_leads: z.number().int(),
    /** Outside calendars of theirs whose last sync failed (their busy times from those are stale). */
    failing_calendars: z.number().int(),
  })
  .meta({ id: 'TeamMember' });
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const inviteSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: roleSchema,
    created_at: z.string(),
    expires_at: z.string(),
    /** The name of the owner who invited them; null once that account is gone. */
    invited_by: z.string().nullable(),
  })
  .meta({ id: 'Invite' });
export type Invite = z.infer<typeof inviteSchema>;

export const teamSchema = z.object({ members: z.array(teamMemberSchema), invites: z.array(inviteSchema) }).meta({ id: 'Team' });
export type Team = z.infer<typeof teamSchema>;

export const inviteRequestSchema = z.object({ email: zodText(LOGIN_RULES.email), role: roleSchema }).meta({ id: 'InviteRequest' });
export type InviteRequest = z.infer<typeof inviteRequestSchema>;

/** The invitation made: its link is for the owner to send themselves when email is off. */
export const inviteCreatedSchema = z.object({ invite: inviteSchema, link: z.string(), emailed: z.boolean() }).meta({ id: 'InviteCreated' });
export type InviteCreated = z.infer<typeof inviteCreatedSchema>;

export const memberParamsSchema = z.object({ id: z.uuid('Invalid account id') });
export const inviteParamsSchema = z.object({ id: z.string().regex(/^[0-9a-f]{16}$/, 'Invalid invitation id') });

export const roleChangeSchema = z.object({ role: roleSchema }).meta({ id: 'RoleChange' });

/** Give every lead owned by `from` to `to` (null: nobody). */
export const reassignRequestSchema = z.object({ to: z.uuid('Invalid account id').nullable() }).meta({ id: 'ReassignRequest' });
export const reassignResultSchema = z.object({ moved: z.number().int() }).meta({ id: 'ReassignResult' });

/** A one-time link's token as it appears in the URL. */
export const linkTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'This link is not valid.');

const password = zodText(LOGIN_RULES.password);
const displayName = zodText(PROFILE_RULES.display_name);
const confirm = z.string({ error: CONFIRM_REQUIRED }).max(1024);
const samePassword = (v: { password: string; confirm: string }) => v.password === v.confirm;

export const acceptInviteSchema = z
  .object({ token: linkTokenSchema, display_name: displayName, password, confirm })
  .refine(samePassword, { path: ['confirm'], message: PASSWORDS_DIFFER })
  .meta({ id: 'AcceptInvite' });
export type AcceptInvite = z.infer<typeof acceptInviteSchema>;
export const inviteLookupSchema = z.object({ email: z.string(), role: roleSchema, expires_at: z.string() }).meta({ id: 'InviteLookup' });
export type InviteLookup = z.infer<typeof inviteLookupSchema>;

/** The first owner, from the set-up link printed at start-up. */
export const setupRequestSchema = z
  .object({ token: linkTokenSchema, display_name: displayName, email: zodText(LOGIN_RULES.email), password, confirm })
  .refine(samePassword, { path: ['confirm'], message: PASSWORDS_DIFFER })
  .meta({ id: 'SetupRequest' });
export type SetupRequest = z.infer<typeof setupRequestSchema>;
