import * as z from 'zod';
import { apiKeyIdParamSchema, apiKeyListSchema, createApiKeyRequestSchema, createdApiKeySchema } from '#shared/schemas/api-keys';
import { actorOf } from '../audit/audit-log.ts';
import { createOwnerRoute } from '../auth/admin-route.ts';
import { createApiKey, deleteApiKey, listApiKeys, revokeKeysOf } from '../db/queries/api-keys-queries.ts';
import { transaction } from '../db/sql.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

/** Settings → Integrations → API keys, for owners. No key can manage keys (createOwnerRoute takes none). */

const listRoute = createOwnerRoute({
  method: 'get',
  path: '/api/api-keys',
  tags: ['api-keys'],
  summary: 'Every API key of the team, newest first: name, scopes, first characters, maker, last use (never the key)',
  responses: { 200: jsonContent(apiKeyListSchema, 'The keys') },
});

const createKeyRoute = createOwnerRoute({
  method: 'post',
  path: '/api/api-keys',
  tags: ['api-keys'],
  summary: 'Make an API key with scopes; it acts as you. The answer holds `key`, shown this once (only its hash is kept)',
  request: { body: { required: true, ...jsonContent(createApiKeyRequestSchema, 'Its name and scopes') } },
  responses: { 201: jsonContent(createdApiKeySchema, 'Made'), ...errorResponses({ 400: 'Invalid input' }) },
});

const revokeRoute = createOwnerRoute({
  method: 'delete',
  path: '/api/api-keys/{id}',
  tags: ['api-keys'],
  summary: 'Revoke an API key: it stops working at once',
  request: { params: apiKeyIdParamSchema },
  responses: {
    200: jsonContent(z.object({ ok: z.literal(true) }), 'Revoked'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such key' }),
  },
});

const revokeMineRoute = createOwnerRoute({
  method: 'post',
  path: '/api/api-keys/revoke-mine',
  tags: ['api-keys'],
  summary: 'Revoke every API key you made, at once (offered after a password change, which does not end them)',
  responses: { 200: jsonContent(z.object({ revoked: z.number().int() }), 'How many were revoked') },
});

export const apiKeyRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json({ api_keys: await listApiKeys(c.get('db')) }, 200))
  .openapi(createKeyRoute, async (c) => {
    const actor = actorOf(c);
    return c.json(await createApiKey(c.get('db'), { ...actor, id: c.get('user').id }, c.req.valid('json')), 201);
  })
  .openapi(revokeMineRoute, async (c) => {
    const me = c.get('user').id;
    const revoked = await transaction(c.get('db'), (t) => revokeKeysOf(t, actorOf(c), me, 'revoked_by_maker'));
    return c.json({ revoked }, 200);
  })
  .openapi(revokeRoute, async (c) => {
    if (!(await deleteApiKey(c.get('db'), actorOf(c), c.req.valid('param').id))) throw new AppError('not_found', 'No API key has that id.');
    return c.json({ ok: true as const }, 200);
  });
