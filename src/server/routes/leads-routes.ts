import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { leadChanges } from '../audit/lead-audit.ts';
import * as z from 'zod';
import { stream } from 'hono/streaming';
import {
  bulkLeadRequestSchema,
  bulkLeadResponseSchema,
  createLeadRequestSchema,
  leadDetailSchema,
  leadExportQuerySchema,
  leadIdParamSchema,
  leadListQuerySchema,
  leadListResponseSchema,
  leadSchema,
  updateLeadRequestSchema,
} from '#shared/schemas/lead';
import type { Context } from 'hono';
import { keyedMail } from '../auth/api-key-mail.ts';
import { createAdminRoute } from '../auth/admin-route.ts';
import { deleteLeadQuerySchema, deleteLeadResponseSchema } from '#shared/schemas/lead-privacy';
import { bulkUpdateLeads } from '../db/queries/lead-bulk-queries.ts';
import { iterateLeads, listLeads } from '../db/queries/lead-list-queries.ts';
import { createLead, getLead, updateLead } from '../db/queries/leads-queries.ts';
import { appointmentMailOf } from '../db/queries/appointments-queries.ts';
import { deleteLeadWithAppointments } from '../db/queries/lead-removal-queries.ts';
import type { AppEnv } from '../http/context.ts';
import { queueMailOf } from '../db/queries/emails-queries.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent, mediaContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { leadCsvHeader, leadCsvRow } from '../leads/lead-csv.ts';
import { leadFiltersOf } from '../leads/lead-filters.ts';
import { leadRefusal } from '../leads/lead-refusal.ts';

const leadNotFound = () => new AppError('not_found', 'Lead not found.');

const listRoute = createAdminRoute({
  method: 'get',
  path: '/api/leads',
  tags: ['leads'],
  summary:
    'Leads: search; status, property type, owner and created-date filters; sorted (newest first by default); one page with the total',
  request: { query: leadListQuerySchema },
  responses: { 200: jsonContent(leadListResponseSchema, 'A page of leads'), ...errorResponses({ 400: 'Invalid input' }) },
});

const exportRoute = createAdminRoute({
  method: 'get',
  path: '/api/leads/export',
  tags: ['leads'],
  summary: "Every lead matching the search and filters (or only the leads in ids), in the list's order, as CSV",
  request: { query: leadExportQuerySchema },
  responses: { 200: mediaContent('text/csv', 'CSV', z.string()), ...errorResponses({ 400: 'Invalid input' }) },
});

const createRoute = createAdminRoute({
  method: 'post',
  path: '/api/leads',
  tags: ['leads'],
  summary: 'Add a lead (status New)',
  request: { body: { required: true, ...jsonContent(createLeadRequestSchema, 'The lead') } },
  responses: { 201: jsonContent(leadSchema, 'The created lead'), ...errorResponses({ 400: 'Invalid input' }) },
});

const getRoute = createAdminRoute({
  method: 'get',
  path: '/api/leads/{id}',
  tags: ['leads'],
  summary: 'One lead with its status history',
  request: { params: leadIdParamSchema },
  responses: { 200: jsonContent(leadDetailSchema, 'The lead'), ...errorResponses({ 400: 'Invalid input', 404: 'No such lead' }) },
});

const updateRoute = createAdminRoute({
  method: 'patch',
  path: '/api/leads/{id}',
  tags: ['leads'],
  summary: 'Change the fields sent (only those)',
  request: { params: leadIdParamSchema, body: { required: true, ...jsonContent(updateLeadRequestSchema, 'The fields to change') } },
  responses: { 200: jsonContent(leadSchema, 'The updated lead'), ...errorResponses({ 400: 'Invalid input', 404: 'No such lead' }) },
});

const deleteRoute = createAdminRoute({
  method: 'delete',
  path: '/api/leads/{id}',
  tags: ['leads'],
  summary: 'Delete a lead; its appointments stay as "Unknown Lead" (keep, the default), are cancelled (those to come) or deleted',
  request: { params: leadIdParamSchema, query: deleteLeadQuerySchema },
  responses: { 200: jsonContent(deleteLeadResponseSchema, 'Deleted'), ...errorResponses({ 400: 'Invalid input', 404: 'No such lead' }) },
});

const bulkRoute = createAdminRoute({
  method: 'post',
  path: '/api/leads/bulk',
  tags: ['leads'],
  summary: 'Change the status or owner of, or delete, up to 500 leads at once (one transaction)',
  request: { body: { required: true, ...jsonContent(bulkLeadRequestSchema, 'The leads and the action') } },
  responses: {
    200: jsonContent(bulkLeadResponseSchema, 'How many of the leads were found and changed'),
    ...errorResponses({ 400: 'Invalid input' }),
  },
});

/** Who asks for a list: `me` is them; days are the business time zone's. */
const askingOf = (c: Context<AppEnv>) => ({ userId: c.get('user').id, timeZone: c.get('deps').config.businessTimeZone });

export const leadRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const query = c.req.valid('query');
    const { filters, order } = leadFiltersOf(query, askingOf(c));
    const { leads, total } = await listLeads(c.get('db'), filters, { order, page: query.page, page_size: query.page_size });
    return c.json({ leads, total, page: query.page, page_size: query.page_size }, 200);
  })
  .openapi(exportRoute, (c) => {
    const db = c.get('db');
    const { filters, order } = leadFiltersOf(c.req.valid('query'), askingOf(c));
    const day = new Date().toISOString().slice(0, 10);
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="leads-${day}.csv"`);
    const query = c.req.valid('query');
    const audit = recordAudit(db, actorOf(c), { action: 'leads_exported', targetType: 'lead', details: { filters: query } });
    return stream(c, async (out) => {
      await audit;
      await out.write(leadCsvHeader());
      for await (const batch of iterateLeads(db, filters, order)) {
        if (out.aborted) return;
        await out.write(batch.map(leadCsvRow).join(''));
      }
    });
  })
  .openapi(bulkRoute, async (c) => {
    const updated = await bulkUpdateLeads(c.get('db'), c.req.valid('json'), c.get('user').id).catch(leadRefusal);
    const request = c.req.valid('json');
    const { ids, ...change } = request;
    await recordAudit(c.get('db'), actorOf(c), {
      action: request.action === 'delete' ? 'lead_deleted' : 'lead_updated',
      targetType: 'lead',
      details: { bulk: true, ids, count: updated, ...change },
    });
    return c.json({ updated }, 200);
  })
  .openapi(createRoute, async (c) => {
    const { id } = await createLead(c.get('db'), c.req.valid('json'), {
      createdBy: c.get('user').id,
      mail: { ...queueMailOf(c.get('deps').config.mail), acknowledge: false },
    });
    c.get('deps').outbox.nudge();
    const lead = id ? await getLead(c.get('db'), id) : undefined;
    if (!lead) throw new AppError('internal_error', 'The lead could not be read back.');
    const { status_history: _history, ...created } = lead;
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'lead_created',
      targetType: 'lead',
      targetId: lead.id,
      details: { name: lead.full_name },
    });
    return c.json(created, 201);
  })
  .openapi(getRoute, async (c) => {
    const lead = await getLead(c.get('db'), c.req.valid('param').id);
    if (!lead) throw leadNotFound();
    return c.json(lead, 200);
  })
  .openapi(updateRoute, async (c) => {
    const { id } = c.req.valid('param');
    const before = await getLead(c.get('db'), id);
    const lead = await updateLead(c.get('db'), id, c.req.valid('json'), c.get('user').id, c.get('deps').config.businessTimeZone).catch(
      leadRefusal,
    );
    if (!lead) throw leadNotFound();
    const changes = before ? leadChanges(before, lead) : {};
    if (Object.keys(changes).length > 0) {
      await recordAudit(c.get('db'), actorOf(c), {
        action: 'lead_updated',
        targetType: 'lead',
        targetId: id,
        details: { name: lead.full_name, changes },
      });
    }
    return c.json(lead, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { appointments } = c.req.valid('query');
    // Cancelling or deleting their appointments tells the lead: through an API key, only as auth/api-key-mail.ts allows.
    const keyed = appointments === 'keep' ? { send: true, answer: undefined } : await keyedMail(c);
    const { config } = c.get('deps');
    const deleted = await deleteLeadWithAppointments(c.get('db'), id, {
      appointments,
      adminId: c.get('user').id,
      timeZone: config.businessTimeZone,
      mail: keyed.send ? appointmentMailOf(config) : undefined,
    });
    if (!deleted) throw leadNotFound();
    const { full_name: name, ...done } = deleted;
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'lead_deleted',
      targetType: 'lead',
      targetId: id,
      details: { name, appointments, ...done },
    });
    c.get('deps').outbox.nudge();
    return c.json({ id, ...done, ...keyed.answer }, 200);
  });
