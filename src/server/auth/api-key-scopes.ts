import { API_KEY_SCOPES, type ApiKeyScope } from '#shared/schemas/api-keys';

/**
 * Which operations an API key may call: the one table. createAdminRoute asks it for every
 * operation it declares, and both documents (the `bearerApiKey` scheme with this scope) and
 * enforces (requireUserOrApiKey) the answer, so the two cannot differ. Owner-only operations
 * (createOwnerRoute) never ask: no key reaches the settings, the team or the keys themselves.
 * The first rule that matches the documented path decides; `null` means sessions only.
 */
const RULES: readonly { path: RegExp; resource: 'leads' | 'appointments' | 'analytics' | null }[] = [
  // Sending email to a lead and handling its replies speak for a person: sessions only.
  { path: /^\/api\/leads\/\{id\}\/(emails|replies)(\/|$)/, resource: null },
  { path: /^\/api\/leads(\/|$)/, resource: 'leads' },
  { path: /^\/api\/pipeline$/, resource: 'leads' },
  { path: /^\/api\/tasks$/, resource: 'leads' },
  { path: /^\/api\/appointments(\/|$)/, resource: 'appointments' },
  { path: /^\/api\/analytics(\/|$)/, resource: 'analytics' },
];

/**
 * The scope an API key needs for `method` on `path` (as the OpenAPI document writes it,
 * `/api/leads/{id}`), or undefined when no key may call it. `:read` is GET, `:write` any other
 * method; a scope that does not exist (analytics:write) means no key.
 */
export function apiKeyScopeOf(method: string, path: string): ApiKeyScope | undefined {
  const resource = RULES.find((rule) => rule.path.test(path))?.resource;
  if (!resource) return undefined;
  const scope = `${resource}:${method.toLowerCase() === 'get' ? 'read' : 'write'}`;
  return (API_KEY_SCOPES as readonly string[]).includes(scope) ? (scope as ApiKeyScope) : undefined;
}
