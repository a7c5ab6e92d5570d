import { PASSWORD_MIN_LENGTH } from '../constants.ts';
import { EMAIL_PATTERN } from './lead-fields.ts';
import { checkText, type TextRule } from './text-checks.ts';

/** The sign-in form's rules (docs/product-rules.md, "Validation"); schemas/auth.ts builds the server's from them. */
export const LOGIN_RULES = {
  email: {
    required: 'Email is required',
    max: { length: 254, message: 'Invalid email address' },
    pattern: { regex: EMAIL_PATTERN, message: 'Invalid email address' },
    lowerCase: true,
  },
  password: {
    required: 'Password is required',
    trim: false,
    min: { length: PASSWORD_MIN_LENGTH, message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` },
    max: { length: 1024, message: 'Password must be at most 1024 characters' },
  },
} satisfies Record<string, TextRule>;

export type LoginInput = { email?: string; password?: string };
export type LoginErrors = Partial<Record<keyof LoginInput, string>>;

/** The browser's check of the sign-in form: the request to send, or the first message for each field. */
export function checkLogin(
  input: LoginInput,
): { ok: true; value: { email: string; password: string } } | { ok: false; errors: LoginErrors } {
  const email = checkText(input.email, LOGIN_RULES.email);
  const password = checkText(input.password, LOGIN_RULES.password);
  if (email.ok && password.ok) return { ok: true, value: { email: email.value!, password: password.value! } };
  const errors: LoginErrors = {};
  if (!email.ok) errors.email = email.error;
  if (!password.ok) errors.password = password.error;
  return { ok: false, errors };
}
