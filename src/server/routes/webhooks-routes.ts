import * as z from 'zod';
import {
  webhookAttemptListSchema,
  webhookDeliveryParamSchema,
  webhookEndpointCreatedSchema,
  webhookEndpointListSchema,
  webhookEndpointRequestSchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
  webhookIdParamSchema,
  webhookReplaySchema,
  webhookSecretSchema,
  webhookTestResultSchema,
} from '#shared/schemas/webhook';
import type { Context } from 'hono';
import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { createOwnerRoute } from '../auth/admin-route.ts';
import { listAttempts } from '../db/queries/webhook-deliveries-queries.ts';
import { deleteWebhookEndpoint, listWebhookEndpoints } from '../db/queries/webhook-endpoints-queries.ts';
import type { AppEnv } from '../http/context.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { addEndpoint } from '../webhooks/add-endpoint.ts';
import { changeEndpoint } from '../webhooks/change-endpoint.ts';
import { endpointSecrets } from '../webhooks/endpoint-secrets.ts';
import { knownEndpoint, webhookNotFound } from '../webhooks/known-endpoint.ts';
import { replay } from '../webhooks/replay.ts';
import { sendTest } from '../webhooks/send-test.ts';

const tags = ['webhooks'];
const notFound = { 400: 'Invalid id', 404: 'No such webhook' };

const listRoute = createOwnerRoute({
  method: 'get',
  path: '/api/webhooks',
  tags,
  summary: 'The webhook endpoints (their secrets: GET /api/webhooks/{id}/secret)',
  responses: { 200: jsonContent(webhookEndpointListSchema, 'Endpoints') },
});

const createRoute = createOwnerRoute({
  method: 'post',
  path: '/api/webhooks',
  tags,
  summary: 'Add a webhook endpoint (HTTPS; plain HTTP only to hosts in OUTBOUND_ALLOW_HOSTS). The answer holds its secret.',
  request: { body: { required: true, ...jsonContent(webhookEndpointRequestSchema, 'The URL and the events') } },
  responses: {
    201: jsonContent(webhookEndpointCreatedSchema, 'Added, with its secret'),
    ...errorResponses({ 400: 'Invalid input, or a URL that is not https', 409: 'Too many endpoints', 503: 'No credentials key' }),
  },
});

const secretRoute = createOwnerRoute({
  method: 'get',
  path: '/api/webhooks/{id}/secret',
  tags,
  summary: 'The endpoint’s signing secret (and the previous one while it still signs, 24 hours after a rotation)',
  request: { params: webhookIdParamSchema },
  responses: { 200: jsonContent(webhookSecretSchema, 'The secret'), ...errorResponses({ ...notFound, 503: 'No credentials key' }) },
});

const updateRoute = createOwnerRoute({
  method: 'patch',
  path: '/api/webhooks/{id}',
  tags,
  summary: 'Change the URL or the events, pause or resume, or rotate the secret (the old one signs too for 24 hours)',
  request: { params: webhookIdParamSchema, body: { required: true, ...jsonContent(webhookEndpointUpdateSchema, 'The changes') } },
  responses: {
    200: jsonContent(webhookEndpointSchema, 'Saved'),
    ...errorResponses({ 400: 'Invalid input, or a URL that is not https', 404: 'No such webhook', 503: 'No credentials key' }),
  },
});

const deleteRoute = createOwnerRoute({
  method: 'delete',
  path: '/api/webhooks/{id}',
  tags,
  summary: 'Remove a webhook endpoint, with its queue and log',
  request: { params: webhookIdParamSchema },
  responses: { 200: jsonContent(z.object({ id: z.uuid() }), 'Removed'), ...errorResponses(notFound) },
});

const testRoute = createOwnerRoute({
  method: 'post',
  path: '/api/webhooks/{id}/test',
  tags,
  summary: 'Send a webhook.test event now and answer what the endpoint said (logged, not retried)',
  request: { params: webhookIdParamSchema },
  responses: {
    200: jsonContent(webhookTestResultSchema, 'The endpoint’s answer'),
    ...errorResponses({ ...notFound, 503: 'No credentials key' }),
  },
});

const deliveriesRoute = createOwnerRoute({
  method: 'get',
  path: '/api/webhooks/{id}/deliveries',
  tags,
  summary: 'The delivery log: the endpoint’s last 100 attempts, newest first (kept 30 days)',
  request: { params: webhookIdParamSchema },
  responses: { 200: jsonContent(webhookAttemptListSchema, 'Attempts'), ...errorResponses(notFound) },
});

const replayRoute = createOwnerRoute({
  method: 'post',
  path: '/api/webhooks/{id}/deliveries/{delivery_id}/replay',
  tags,
  summary: 'Send a delivery’s event again (the same webhook-id and body), as a new delivery',
  request: { params: webhookDeliveryParamSchema },
  responses: {
    202: jsonContent(webhookReplaySchema, 'Queued'),
    ...errorResponses({ 400: 'Invalid id', 404: 'No such webhook or delivery', 409: 'The event was about an erased lead' }),
  },
});

const hostOf = (url: string) => new URL(url).host;

const audit = (c: Context<AppEnv>, id: string, url: string, change: string, extra: Record<string, unknown> = {}) =>
  recordAudit(c.get('db'), actorOf(c), {
    action: 'settings_changed',
    targetType: 'settings',
    targetId: 'webhooks',
    details: { webhook: change, webhook_id: id, host: hostOf(url), ...extra },
  });

/** Settings → Integrations → Webhooks (owners). docs/webhooks.md; the rules are in webhooks/. */
export const webhookRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json({ endpoints: await listWebhookEndpoints(c.get('db')) }, 200))
  .openapi(createRoute, async (c) => {
    const { url, events } = c.req.valid('json');
    const { config, vault } = c.get('deps');
    const created = await addEndpoint(c.get('db'), vault(), config.outboundAllowHosts, { url, events, createdBy: c.get('user').id });
    await audit(c, created.id, url, 'created', { events });
    return c.json(created, 201);
  })
  .openapi(secretRoute, async (c) => c.json(await endpointSecrets(c.get('db'), c.get('deps').vault(), c.req.valid('param').id), 200))
  .openapi(updateRoute, async (c) => {
    const { id } = c.req.valid('param');
    const body = c.req.valid('json');
    const { config, vault } = c.get('deps');
    const { before, saved, rotated } = await changeEndpoint(c.get('db'), vault(), config.outboundAllowHosts, id, body);
    const changed = Object.keys(body).filter((key) => key !== 'rotate_secret');
    if (changed.length > 0 || rotated) {
      await audit(c, id, saved.url, 'changed', {
        fields: changed,
        ...(rotated && { secret_rotated: true }),
        ...(before.url !== saved.url && { previous_host: hostOf(before.url) }),
      });
    }
    return c.json(saved, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id } = c.req.valid('param');
    const url = await deleteWebhookEndpoint(c.get('db'), id);
    if (url === undefined) throw webhookNotFound();
    await audit(c, id, url, 'removed');
    return c.json({ id }, 200);
  })
  .openapi(testRoute, async (c) => {
    const { vault, webhooks } = c.get('deps');
    return c.json(await sendTest(c.get('db'), vault(), webhooks, c.req.valid('param').id), 200);
  })
  .openapi(deliveriesRoute, async (c) => {
    const { id } = c.req.valid('param');
    await knownEndpoint(c.get('db'), id);
    return c.json({ attempts: await listAttempts(c.get('db'), id) }, 200);
  })
  .openapi(replayRoute, async (c) => {
    const { id, delivery_id: deliveryId } = c.req.valid('param');
    return c.json({ delivery_id: await replay(c.get('db'), id, deliveryId) }, 202);
  });
