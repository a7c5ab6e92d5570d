import * as z from 'zod';
import { PASSWORD_MIN_LENGTH } from '../constants.ts';
import { EMAIL_PATTERN } from './lead.ts';

/** Sign-in form and request; messages are the spec's (section 5, Login). */
export const loginRequestSchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, { message: 'Email is required', abort: true })
    .max(254, 'Invalid email address')
    .regex(EMAIL_PATTERN, 'Invalid email address')
    .toLowerCase(),
  password: z
    .string({ error: 'Password is required' })
    .min(1, { message: 'Password is required', abort: true })
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(1024, 'Password must be at most 1024 characters'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const currentUserSchema = z.object({ id: z.uuid(), email: z.string() });
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** The browser's session check: who is signed in, if anyone. */
export const sessionResponseSchema = z.object({ user: currentUserSchema.nullable() });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const loginResponseSchema = z.object({ user: currentUserSchema });
