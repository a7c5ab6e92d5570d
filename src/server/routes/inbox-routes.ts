import * as z from 'zod';
import {
  attachInboundRequestSchema,
  inboundAttachedSchema,
  inboxIdParamSchema,
  inboxQuerySchema,
  inboxResponseSchema,
} from '#shared/schemas/inbox';
import { createLeadRequestSchema, leadSchema } from '#shared/schemas/lead';
import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { createAdminRoute } from '../auth/admin-route.ts';
import { attachToLead, dismissMessage, leadFromMessage } from '../conversations/inbox-actions.ts';
import { listInbox } from '../db/queries/inbound-emails-queries.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

/** How many messages a view of the Inbox lists (the newest). */
const INBOX_PAGE = 100;

const listRoute = createAdminRoute({
  method: 'get',
  path: '/api/inbox',
  tags: ['inbox'],
  summary: `Mail that joined no lead, newest first (at most ${INBOX_PAGE}): waiting, or dismissed (kept 30 days)`,
  request: { query: inboxQuerySchema },
  responses: { 200: jsonContent(inboxResponseSchema, 'The Inbox'), ...errorResponses({ 400: 'Invalid view' }) },
});

const attachRoute = createAdminRoute({
  method: 'post',
  path: '/api/inbox/{id}/attach',
  tags: ['inbox'],
  summary: 'Put a message of the Inbox on a lead’s page',
  request: { params: inboxIdParamSchema, body: { required: true, ...jsonContent(attachInboundRequestSchema, 'The lead') } },
  responses: {
    200: jsonContent(inboundAttachedSchema, 'On the lead’s page'),
    ...errorResponses({ 400: 'Invalid input, or no such lead', 404: 'No such message', 409: 'On a lead’s page already' }),
  },
});

const leadRoute = createAdminRoute({
  method: 'post',
  path: '/api/inbox/{id}/lead',
  tags: ['inbox'],
  summary: 'Make a lead of a message of the Inbox (source "Email", no acknowledgement sent); the message goes on its page',
  request: { params: inboxIdParamSchema, body: { required: true, ...jsonContent(createLeadRequestSchema, 'The lead') } },
  responses: {
    201: jsonContent(leadSchema, 'The lead'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such message', 409: 'On a lead’s page already' }),
  },
});

const dismissRoute = createAdminRoute({
  method: 'post',
  path: '/api/inbox/{id}/dismiss',
  tags: ['inbox'],
  summary: 'Dismiss a message of the Inbox: deleted with its files after 30 days',
  request: { params: inboxIdParamSchema },
  responses: {
    200: jsonContent(z.object({ id: z.uuid() }), 'Dismissed'),
    ...errorResponses({ 400: 'Invalid id', 404: 'No such message', 409: 'On a lead’s page' }),
  },
});

const restoreRoute = createAdminRoute({
  method: 'post',
  path: '/api/inbox/{id}/restore',
  tags: ['inbox'],
  summary: 'Bring a dismissed message back to the Inbox',
  request: { params: inboxIdParamSchema },
  responses: {
    200: jsonContent(z.object({ id: z.uuid() }), 'Back'),
    ...errorResponses({ 400: 'Invalid id', 404: 'No such message', 409: 'On a lead’s page' }),
  },
});

/** The Inbox (owners and staff): mail read from the reply mailbox that joined no lead (conversations/inbox-actions.ts). */
export const inboxRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listInbox(c.get('db'), c.req.valid('query').view, INBOX_PAGE), 200))
  .openapi(attachRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { lead_id } = c.req.valid('json');
    await attachToLead(c.get('db'), id, lead_id);
    return c.json({ id, lead_id }, 200);
  })
  .openapi(leadRoute, async (c) => {
    const lead = await leadFromMessage(c.get('db'), c.req.valid('param').id, c.req.valid('json'), c.get('user').id);
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'lead_created',
      targetType: 'lead',
      targetId: lead.id,
      details: { name: lead.full_name, from: 'inbox' },
    });
    return c.json(lead, 201);
  })
  .openapi(dismissRoute, async (c) => {
    const { id } = c.req.valid('param');
    await dismissMessage(c.get('db'), id, true);
    return c.json({ id }, 200);
  })
  .openapi(restoreRoute, async (c) => {
    const { id } = c.req.valid('param');
    await dismissMessage(c.get('db'), id, false);
    return c.json({ id }, 200);
  });
