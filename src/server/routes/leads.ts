import { z } from '@hono/zod-openapi';
import { stream } from 'hono/streaming';
import { errorResponseSchema } from '#shared/schemas/error';
import {
  createLeadRequestSchema,
  leadDetailSchema,
  leadIdParamSchema,
  leadListQuerySchema,
  leadListResponseSchema,
  leadSchema,
  updateLeadRequestSchema,
} from '#shared/schemas/lead';
import { createAdminRoute } from '../auth/admin-route.ts';
import { createLead } from '../db/queries/leads.ts';
import { deleteLead, getLead, iterateLeads, listLeads, updateLead } from '../db/queries/lead-admin.ts';
import { csvRow } from '../lib/csv.ts';
import { AppError } from '../http/errors.ts';
import { createRouter, requireDb } from '../http/router.ts';

const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });
const invalid = { 400: { description: 'Invalid input', content: json(errorResponseSchema) } };
const notFound = { 404: { description: 'No such lead', content: json(errorResponseSchema) } };
const leadNotFound = () => new AppError('not_found', 'Lead not found.');

const listRoute = createAdminRoute({
  method: 'get',
  path: '/api/leads',
  tags: ['leads'],
  summary: 'Leads, newest first: search, status and property type filters, one page with the total',
  request: { query: leadListQuerySchema },
  responses: { 200: { description: 'A page of leads', content: json(leadListResponseSchema) }, ...invalid },
});

const exportRoute = createAdminRoute({
  method: 'get',
  path: '/api/leads/export',
  tags: ['leads'],
  summary: 'Every lead matching the search and filters, as CSV',
  request: { query: leadListQuerySchema.omit({ page: true, page_size: true }) },
  responses: { 200: { description: 'CSV', content: { 'text/csv': { schema: z.string() } } }, ...invalid },
});

const createRoute = createAdminRoute({
  method: 'post',
  path: '/api/leads',
  tags: ['leads'],
  summary: 'Add a lead (status New)',
  request: { body: { required: true, content: json(createLeadRequestSchema) } },
  responses: { 201: { description: 'The created lead', content: json(leadSchema) }, ...invalid },
});

const getRoute = createAdminRoute({
  method: 'get',
  path: '/api/leads/{id}',
  tags: ['leads'],
  summary: 'One lead with its status history',
  request: { params: leadIdParamSchema },
  responses: { 200: { description: 'The lead', content: json(leadDetailSchema) }, ...invalid, ...notFound },
});

const updateRoute = createAdminRoute({
  method: 'patch',
  path: '/api/leads/{id}',
  tags: ['leads'],
  summary: 'Change the fields sent (only those)',
  request: { params: leadIdParamSchema, body: { required: true, content: json(updateLeadRequestSchema) } },
  responses: { 200: { description: 'The updated lead', content: json(leadSchema) }, ...invalid, ...notFound },
});

const deleteRoute = createAdminRoute({
  method: 'delete',
  path: '/api/leads/{id}',
  tags: ['leads'],
  summary: 'Delete a lead (its appointments stay, as "Unknown Lead")',
  request: { params: leadIdParamSchema },
  responses: { 200: { description: 'Deleted', content: json(z.object({ id: z.uuid() })) }, ...invalid, ...notFound },
});

const CSV_HEADER = ['Name', 'Email', 'Phone', 'Property Type', 'Status', 'Contacted', 'Date Added', 'Message'];

export const leadRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const query = c.req.valid('query');
    const { leads, total } = await listLeads(requireDb(c), query);
    return c.json({ leads, total, page: query.page, page_size: query.page_size }, 200);
  })
  .openapi(exportRoute, (c) => {
    const db = requireDb(c);
    const filters = c.req.valid('query');
    const day = new Date().toISOString().slice(0, 10);
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="leads-${day}.csv"`);
    return stream(c, async (out) => {
      await out.write(csvRow(CSV_HEADER));
      for await (const batch of iterateLeads(db, filters)) {
        if (out.aborted) return;
        await out.write(
          batch
            .map((l) => csvRow([l.full_name, l.email, l.phone, l.property_types[0], l.status, l.contacted ? 'Yes' : 'No', l.created_at, l.message]))
            .join(''),
        );
      }
    });
  })
  .openapi(createRoute, async (c) => {
    const db = requireDb(c);
    const { id } = await createLead(db, c.req.valid('json'), c.get('user').id);
    const lead = id ? await getLead(db, id) : undefined;
    if (!lead) throw new AppError('internal_error', 'The lead could not be read back.');
    const { status_history: _history, ...created } = lead;
    return c.json(created, 201);
  })
  .openapi(getRoute, async (c) => {
    const lead = await getLead(requireDb(c), c.req.valid('param').id);
    if (!lead) throw leadNotFound();
    return c.json(lead, 200);
  })
  .openapi(updateRoute, async (c) => {
    const lead = await updateLead(requireDb(c), c.req.valid('param').id, c.req.valid('json'), c.get('user').id);
    if (!lead) throw leadNotFound();
    return c.json(lead, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!(await deleteLead(requireDb(c), id))) throw leadNotFound();
    return c.json({ id }, 200);
  });
