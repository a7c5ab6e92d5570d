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
import { attachInbound, dismissInbound, isOnALead, listInbox, lockInboxMessage, type InboxRefusal } from '../db/queries/inbound-emails.ts';
import { createLead, getLead } from '../db/queries/leads.ts';
import { transaction } from '../db/sql.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

/** How many messages a view of the Inbox lists (the newest). */
const INBOX_PAGE = 100;
const ALREADY_ON_A_LEAD = 'This message is on a lead’s page already.';

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

const refused = (why: InboxRefusal) =>
  why === 'attached' ? new AppError('conflict', ALREADY_ON_A_LEAD) : new AppError('not_found', 'Message not found.');

/** The Inbox (owners and staff): mail read from the reply mailbox that joined no lead. */
export const inboxRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listInbox(c.get('db'), c.req.valid('query').view, INBOX_PAGE), 200))
  .openapi(attachRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { lead_id } = c.req.valid('json');
    const done = await attachInbound(c.get('db'), id, lead_id);
    if (done === 'no_lead') throw new AppError('validation_failed', 'That lead does not exist.', { lead_id: 'Choose a lead' });
    if (done !== true) throw refused(done);
    return c.json({ id, lead_id }, 200);
  })
  .openapi(leadRoute, async (c) => {
    const { id } = c.req.valid('param');
    const user = c.get('user');
    // One transaction: two people making a lead of one message make one lead.
    const leadId = await transaction(c.get('db'), async (tx) => {
      if (!(await lockInboxMessage(tx, id))) return undefined;
      // No mail at all: a person who emailed the firm gets no automatic answer (mail cannot be bounced at strangers).
      const created = await createLead(tx, c.req.valid('json'), { createdBy: user.id, source: 'Email' });
      if (!created.id || (await attachInbound(tx, id, created.id)) !== true)
        throw new AppError('internal_error', 'The lead could not be made.');
      return created.id;
    });
    if (!leadId) throw refused((await isOnALead(c.get('db'), id)) ? 'attached' : 'not_found');
    const lead = await getLead(c.get('db'), leadId);
    if (!lead) throw new AppError('internal_error', 'The lead could not be read back.');
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'lead_created',
      targetType: 'lead',
      targetId: lead.id,
      details: { name: lead.full_name, from: 'inbox' },
    });
    const { status_history: _history, ...created } = lead;
    return c.json(created, 201);
  })
  .openapi(dismissRoute, async (c) => {
    const { id } = c.req.valid('param');
    const done = await dismissInbound(c.get('db'), id, true);
    if (done !== true) throw refused(done);
    return c.json({ id }, 200);
  })
  .openapi(restoreRoute, async (c) => {
    const { id } = c.req.valid('param');
    const done = await dismissInbound(c.get('db'), id, false);
    if (done !== true) throw refused(done);
    return c.json({ id }, 200);
  });
