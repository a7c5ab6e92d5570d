import * as z from 'zod';
import { API_KEY_SCOPES, type ApiKeyScope } from '../constants.ts';
import { API_KEY_NAME_RULE, NO_SCOPE_MESSAGE } from '../rules/api-key-checks.ts';
import { zodText } from './text.ts';

/**
 * API keys (Settings → Integrations): another program calls the API with
 * `Authorization: Bearer <key>`, as the owner who made the key, on the operations its scopes
 * cover. `:read` is GET, `:write` is POST/PATCH/PUT/DELETE; a key needs both for both.
 */
export { API_KEY_SCOPES, type ApiKeyScope };

export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES, { error: `Scopes must be among ${API_KEY_SCOPES.join(', ')}` });

export const createApiKeyRequestSchema = z
  .object({
    name: zodText(API_KEY_NAME_RULE),
    scopes: z
      .array(apiKeyScopeSchema, { error: 'Choose at least one scope' })
      .min(1, NO_SCOPE_MESSAGE)
      .max(API_KEY_SCOPES.length, 'Each scope at most once')
      .refine((scopes) => new Set(scopes).size === scopes.length, { message: 'Each scope at most once' }),
  })
  .meta({ id: 'CreateApiKeyRequest' });
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

export const apiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    scopes: z.array(apiKeyScopeSchema),
    /** The key's first characters, to recognise it (never enough to use it). */
    prefix: z.string(),
    /** Who made it: the key acts as them. */
    created_by: z.object({ id: z.uuid(), name: z.string() }),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    last_used_ip: z.string().nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ api_keys: z.array(apiKeySchema) }).meta({ id: 'ApiKeyList' });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/** The answer to creating a key: the only time `key` itself is shown. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() }).meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyIdParamSchema = z.object({ id: z.uuid('Invalid API key id') });

/**
 * What an answer adds when an API key's change could email a lead (an appointment scheduled,
 * moved or cancelled; a lead deleted with its appointments): whether it did, and why not.
 * Without the email:send scope, or past its maker's LEAD_EMAIL_PER_HOUR, nothing is sent.
 * A person signed in gets neither field.
 */
export const notifiedFields = {
  notified: z.boolean().optional(),
  notified_reason: z.string().optional(),
};
