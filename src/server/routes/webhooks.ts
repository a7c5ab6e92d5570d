import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { WEBHOOK_ENDPOINTS_MAX } from '#shared/constants';
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
import { createTestDelivery, listAttempts, replayDelivery } from '../db/queries/webhook-deliveries.ts';
import { webhookSecretContext } from '../db/sealed-secrets.ts';
import {
  countWebhookEndpoints,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getSealedSecrets,
  getWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from '../db/queries/webhook-endpoints.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { endpointUrlProblem } from '../webhooks/endpoint-url.ts';
import { newWebhookSecret } from '../webhooks/signature.ts';

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

function vaultOf(c: Context<AppEnv>) {
  const vault = c.get('deps').vault();
  if (!vault.available) throw new AppError('service_unavailable', vault.reason);
  return vault;
}

function checkUrl(c: Context<AppEnv>, url: string) {
  const problem = endpointUrlProblem(url, c.get('deps').config.outboundAllowHosts);
  if (problem) throw new AppError('validation_failed', problem, { url: problem });
}

const hostOf = (url: string) => new URL(url).host;

const audit = (c: Context<AppEnv>, id: string, url: string, change: string, extra: Record<string, unknown> = {}) =>
  recordAudit(c.get('db'), actorOf(c), {
    action: 'settings_changed',
    targetType: 'settings',
    targetId: 'webhooks',
    details: { webhook: change, webhook_id: id, host: hostOf(url), ...extra },
  });

const webhookNotFound = () => new AppError('not_found', 'Webhook not found.');

async function existing(c: Context<AppEnv>, id: string) {
  const endpoint = await getWebhookEndpoint(c.get('db'), id);
  if (!endpoint) throw webhookNotFound();
  return endpoint;
}

/** Settings → Integrations → Webhooks (owners). docs/webhooks.md. */
export const webhookRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json({ endpoints: await listWebhookEndpoints(c.get('db')) }, 200))
  .openapi(createRoute, async (c) => {
    const body = c.req.valid('json');
    checkUrl(c, body.url);
    const vault = vaultOf(c);
    const db = c.get('db');
    if ((await countWebhookEndpoints(db)) >= WEBHOOK_ENDPOINTS_MAX)
      throw new AppError('conflict', `A firm keeps at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints: remove one first.`);
    const id = randomUUID();
    const secret = newWebhookSecret();
    const created = await createWebhookEndpoint(db, {
      id,
      url: body.url,
      events: body.events,
      sealedSecret: vault.seal(secret, webhookSecretContext(id)),
      createdBy: c.get('user').id,
    });
    await audit(c, id, body.url, 'created', { events: body.events });
    return c.json({ ...created, secret }, 201);
  })
  .openapi(secretRoute, async (c) => {
    const { id } = c.req.valid('param');
    const vault = vaultOf(c);
    const sealed = await getSealedSecrets(c.get('db'), id);
    if (!sealed) throw webhookNotFound();
    return c.json(
      {
        secret: vault.open(sealed.secret, webhookSecretContext(id)),
        previous_secret: sealed.previous_secret ? vault.open(sealed.previous_secret, webhookSecretContext(id)) : null,
        previous_secret_until: sealed.previous_secret_until,
      },
      200,
    );
  })
  .openapi(updateRoute, async (c) => {
    const { id } = c.req.valid('param');
    const body = c.req.valid('json');
    if (body.url !== undefined) checkUrl(c, body.url);
    const rotatedSecret = body.rotate_secret ? vaultOf(c).seal(newWebhookSecret(), webhookSecretContext(id)) : undefined;
    const before = await existing(c, id);
    const saved = await updateWebhookEndpoint(c.get('db'), id, {
      ...(body.url !== undefined && { url: body.url }),
      ...(body.events !== undefined && { events: body.events }),
      ...(body.paused !== undefined && { paused: body.paused }),
      ...(rotatedSecret !== undefined && { rotatedSecret }),
    });
    if (!saved) throw webhookNotFound();
    const changed = Object.keys(body).filter((key) => key !== 'rotate_secret');
    if (changed.length > 0 || rotatedSecret) {
      await audit(c, id, saved.url, 'changed', {
        fields: changed,
        ...(rotatedSecret && { secret_rotated: true }),
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
    const { id } = c.req.valid('param');
    await existing(c, id);
    vaultOf(c);
    const { webhooks } = c.get('deps');
    const db = c.get('db');
    const now = new Date();
    const delivery = await createTestDelivery(db, id, now, webhooks.leaseSeconds);
    const result = await webhooks.deliver(db, delivery, now, { retry: false });
    return c.json(
      {
        delivered: result.delivered,
        http_status: result.httpStatus,
        duration_ms: result.durationMs,
        response_body: result.responseBody,
        error: result.error,
      },
      200,
    );
  })
  .openapi(deliveriesRoute, async (c) => {
    const { id } = c.req.valid('param');
    await existing(c, id);
    return c.json({ attempts: await listAttempts(c.get('db'), id) }, 200);
  })
  .openapi(replayRoute, async (c) => {
    const { id, delivery_id: deliveryId } = c.req.valid('param');
    const replayed = await replayDelivery(c.get('db'), id, deliveryId, new Date());
    if (replayed === 'not_found') throw new AppError('not_found', 'Delivery not found.');
    if (replayed === 'erased') throw new AppError('conflict', 'This event was about a lead who was erased: there is nothing left to send.');
    return c.json({ delivery_id: replayed }, 202);
  });
