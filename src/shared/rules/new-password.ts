import { LOGIN_RULES } from './login.ts';
import { checkText } from './text-checks.ts';

/**
 * A password someone chooses (first owner, an accepted invitation, a reset, a change): the
 * sign-in rules for its length, typed twice. The browser and the server check the same rules.
 */
export const PASSWORDS_DIFFER = 'Passwords do not match';
export const CONFIRM_REQUIRED = 'Please type the password again';

export type NewPasswordInput = { password?: string; confirm?: string };
export type NewPasswordErrors = Partial<Record<keyof NewPasswordInput, string>>;

export function checkNewPassword(input: NewPasswordInput): { ok: true; value: string } | { ok: false; errors: NewPasswordErrors } {
  const password = checkText(input.password, LOGIN_RULES.password);
  const errors: NewPasswordErrors = {};
  if (!password.ok) errors.password = password.error;
  if (!input.confirm) errors.confirm = CONFIRM_REQUIRED;
  else if (input.confirm !== input.password) errors.confirm = PASSWORDS_DIFFER;
  if (password.ok && !errors.confirm) return { ok: true, value: password.value! };
  return { ok: false, errors };
}
