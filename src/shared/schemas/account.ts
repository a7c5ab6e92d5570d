import * as z from 'zod';
import { LOGIN_RULES } from '../rules/login.ts';
import { CONFIRM_REQUIRED, PASSWORDS_DIFFER } from '../rules/new-password.ts';
import { PROFILE_RULES } from '../rules/profile.ts';
import { storableText, zodText } from './text.ts';
import { EMAIL_SIGNATURE_MAX, RESET_LINK_NOT_VALID } from '../constants.ts';

export { RESET_LINK_NOT_VALID };

/** The account page's and the password reset's contract. */

export const CURRENT_PASSWORD_WRONG = 'Current password is incorrect';
const currentPassword = z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(1024);
const confirm = z.string({ error: CONFIRM_REQUIRED }).min(1, CONFIRM_REQUIRED).max(1024);
const samePassword = (v: { password: string; confirm: string }) => v.password === v.confirm;

export const changeEmailSchema = z
  .object({ email: zodText(LOGIN_RULES.email), current_password: currentPassword })
  .meta({ id: 'ChangeEmail' });
export type ChangeEmail = z.infer<typeof changeEmailSchema>;

export const changePasswordSchema = z
  .object({ current_password: currentPassword, password: zodText(LOGIN_RULES.password), confirm })
  .refine(samePassword, { path: ['confirm'], message: PASSWORDS_DIFFER })
  .meta({ id: 'ChangePassword' });
export type ChangePassword = z.infer<typeof changePasswordSchema>;

/** One's name and phone (the account page); a blank phone removes it. The rules: rules/profile.ts. */
export const profileRequestSchema = z
  .object({
    display_name: zodText(PROFILE_RULES.display_name),
    phone: zodText(PROFILE_RULES.phone).nullable().optional(),
  })
  .meta({ id: 'ProfileRequest' });
export type ProfileRequest = z.infer<typeof profileRequestSchema>;
export const profileSchema = z.object({ display_name: z.string(), phone: z.string().nullable() }).meta({ id: 'Profile' });
export type Profile = z.infer<typeof profileSchema>;

/** The signature under the messages you write to leads ('' = none): plain text, line breaks kept. */
export const signatureSchema = z
  .object({
    signature: storableText({ error: 'Signature must be text' })
      .trim()
      .max(EMAIL_SIGNATURE_MAX, `Signature must be at most ${EMAIL_SIGNATURE_MAX.toLocaleString('en-US')} characters`),
  })
  .meta({ id: 'Signature' });
export type Signature = z.infer<typeof signatureSchema>;

/** What a change to the account ended: the other sessions signed out. */
export const accountChangeSchema = z.object({ email: z.string(), other_sessions_ended: z.number().int() }).meta({ id: 'AccountChange' });

/** A password change's answer: also the API keys the person made, which it does not end (revoke them all: DELETE /api/api-keys/mine). */
export const passwordChangeSchema = z
  .object({
    email: z.string(),
    other_sessions_ended: z.number().int(),
    api_keys: z.array(z.object({ id: z.uuid(), name: z.string(), prefix: z.string() })),
  })
  .meta({ id: 'PasswordChange' });
export type PasswordChange = z.infer<typeof passwordChangeSchema>;

export const accountSessionSchema = z
  .object({
    id: z.uuid(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    created_at: z.string(),
    last_seen_at: z.string(),
    /** The session of the browser asking. */
    current: z.boolean(),
  })
  .meta({ id: 'AccountSession' });
export type AccountSession = z.infer<typeof accountSessionSchema>;
export const accountSessionsSchema = z.object({ sessions: z.array(accountSessionSchema) }).meta({ id: 'AccountSessions' });
export const sessionParamsSchema = z.object({ id: z.uuid('Invalid session id') });

export const passwordResetRequestSchema = z.object({ email: zodText(LOGIN_RULES.email) }).meta({ id: 'PasswordResetRequest' });
export const PASSWORD_RESET_SENT =
  'If an account uses that address, we have sent it a link to choose a new password. The link works for 30 minutes.';

export const passwordResetLookupSchema = z.object({ email: z.string() }).meta({ id: 'PasswordResetLookup' });
export const passwordResetConfirmSchema = z
  .object({
    token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'This link is not valid.'),
    password: zodText(LOGIN_RULES.password),
    confirm,
  })
  .refine(samePassword, { path: ['confirm'], message: PASSWORDS_DIFFER })
  .meta({ id: 'PasswordResetConfirm' });

/** A reset link's new password, saved: the account, and how many API keys it made (a password change does not end them). */
export const passwordResetDoneSchema = z.object({ email: z.string(), active_api_keys: z.number().int() }).meta({ id: 'PasswordResetDone' });
