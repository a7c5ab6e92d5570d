import { API_KEY_SCOPES, type ApiKeyScope } from '../constants.ts';
import { NUL_MESSAGE, checkText, type TextRule } from './text-checks.ts';

/**
 * A new API key (Settings → Integrations): a name to recognise it by and at least one scope.
 * schemas/api-keys.ts builds the server's schema from these rules; `checkNewApiKey` is the
 * browser's check of the form.
 */
export const API_KEY_NAME_MAX = 60;
export const API_KEY_NAME_RULE = {
  required: 'Name is required',
  max: { length: API_KEY_NAME_MAX, message: `Name must be at most ${API_KEY_NAME_MAX} characters` },
  noNul: NUL_MESSAGE,
} satisfies TextRule;
export const NO_SCOPE_MESSAGE = 'Choose at least one scope';

export type NewApiKeyErrors = { name?: string; scopes?: string };

export function checkNewApiKey(input: {
  name: string;
  scopes: ApiKeyScope[];
}): { ok: true; value: { name: string; scopes: ApiKeyScope[] } } | { ok: false; errors: NewApiKeyErrors } {
  const name = checkText(input.name, API_KEY_NAME_RULE);
  const errors: NewApiKeyErrors = {};
  if (!name.ok) errors.name = name.error;
  if (input.scopes.length === 0) errors.scopes = NO_SCOPE_MESSAGE;
  if (!name.ok || input.scopes.length === 0) return { ok: false, errors };
  return { ok: true, value: { name: name.value!, scopes: API_KEY_SCOPES.filter((s) => input.scopes.includes(s)) } };
}
