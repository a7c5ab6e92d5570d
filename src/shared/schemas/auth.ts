import * as z from 'zod';
import { LOGIN_RULES } from '../rules/login.ts';
import { zodText } from './text.ts';
import { ROLES, ROLE_LABEL, type Role } from '../constants.ts';

export { ROLES, ROLE_LABEL };
export type { Role };

/** The sign-in request: the rules of the sign-in form (rules/login.ts). */
export const loginRequestSchema = z
  .object({ email: zodText(LOGIN_RULES.email), password: zodText(LOGIN_RULES.password) })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** Owners manage the team and the settings; staff do everything else an admin does. */
export const roleSchema = z.enum(ROLES).meta({ id: 'Role' });

export const currentUserSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    /** The name the product shows for this person (rules/profile.ts). */
    display_name: z.string(),
    phone: z.string().nullable(),
    role: roleSchema,
    /** The team requires two-factor and this account has not set it up: only the account page opens until it does. */
    must_set_up_two_factor: z.boolean().optional(),
  })
  .meta({ id: 'CurrentUser' });
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** The browser's session check: who is signed in, if anyone. */
export const sessionResponseSchema = z
  .object({
    user: currentUserSchema.nullable(),
    /** Nobody has an account yet: the first owner is created from the set-up link in the server's log. */
    setup_needed: z.boolean().optional(),
  })
  .meta({ id: 'SessionResponse' });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** Signed in, or (two-factor on) the password was right and a code is asked for next. */
export const loginResponseSchema = z
  .union([z.object({ user: currentUserSchema }), z.object({ two_factor_required: z.literal(true) })])
  .meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const twoFactorLoginSchema = z
  .object({
    code: z.string().trim().max(20).optional(),
    recovery_code: z.string().trim().max(40).optional(),
    remember_device: z.boolean().optional(),
  })
  .meta({ id: 'TwoFactorLogin' });
export type TwoFactorLogin = z.infer<typeof twoFactorLoginSchema>;

export const TWO_FACTOR_SETUP_REQUIRED = 'Your team requires two-factor authentication: set it up on your account page to continue.';
