import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { ERASED } from '../audit/lead-audit.ts';
import { leadDetailSchema, leadIdParamSchema } from '#shared/schemas/lead';
import {
  appointmentCountsSchema,
  duplicatesResponseSchema,
  eraseResponseSchema,
  leadExportSchema,
  mergeRequestSchema,
} from '#shared/schemas/lead-privacy';
import { writeCopiesNow } from '../calendars/calendar-copies.ts';
import { calendarAccess } from '../calendars/calendar-access.ts';
import { createAdminRoute } from '../auth/admin-route.ts';
import { exportLead } from '../db/queries/lead-export-queries.ts';
import { MergeRefused, listDuplicates, mergeLeads } from '../db/queries/lead-merge-queries.ts';
import { countLeadAppointments, eraseLead } from '../db/queries/lead-removal-queries.ts';
import { getLead } from '../db/queries/leads-queries.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { leadExportFileName } from '../leads/export-file-name.ts';

/** A person's data requests and duplicates (docs/product-rules.md, "Personal data requests"). */

const leadNotFound = () => new AppError('not_found', 'Lead not found.');

const exportRoute = createAdminRoute({
  method: 'get',
  path: '/api/leads/{id}/export',
  tags: ['leads'],
  summary: 'Everything held about the person, as a JSON download: the lead, its history, timeline, notes, appointments, emails and visits',
  request: { params: leadIdParamSchema },
  responses: {
    200: jsonContent(leadExportSchema, 'The export (an attachment)'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such lead' }),
  },
});

const eraseRoute = createAdminRoute({
  method: 'post',
  path: '/api/leads/{id}/erase',
  tags: ['leads'],
  summary:
    'Erase the person: the lead (and its duplicates) with all it owns, the notifications naming them, their raw analytics events; appointments stay without them',
  request: { params: leadIdParamSchema },
  responses: { 200: jsonContent(eraseResponseSchema, 'Erased'), ...errorResponses({ 400: 'Invalid input', 404: 'No such lead' }) },
});

const appointmentCountsRoute = createAdminRoute({
  method: 'get',
  path: '/api/leads/{id}/appointment-counts',
  tags: ['leads'],
  summary: 'How many appointments the lead has, and how many are still to come (asked before deleting it)',
  request: { params: leadIdParamSchema },
  responses: { 200: jsonContent(appointmentCountsSchema, 'The counts'), ...errorResponses({ 400: 'Invalid input', 404: 'No such lead' }) },
});

const duplicatesRoute = createAdminRoute({
  method: 'get',
  path: '/api/leads/{id}/duplicates',
  tags: ['leads'],
  summary: 'The other leads with the same email, oldest first',
  request: { params: leadIdParamSchema },
  responses: {
    200: jsonContent(duplicatesResponseSchema, 'The duplicates'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such lead' }),
  },
});

const mergeRoute = createAdminRoute({
  method: 'post',
  path: '/api/leads/{id}/merge',
  tags: ['leads'],
  summary: 'Merge a duplicate (same email) into this lead, keeping the chosen value of each field; the duplicate is deleted',
  request: {
    params: leadIdParamSchema,
    body: { required: true, ...jsonContent(mergeRequestSchema, 'The duplicate and the values to keep') },
  },
  responses: {
    200: jsonContent(leadDetailSchema, 'The lead kept'),
    ...errorResponses({ 400: 'Invalid input, the same lead twice, or different emails', 404: 'No such lead' }),
  },
});

export const leadPrivacyRoutes = createRouter()
  .openapi(exportRoute, async (c) => {
    const data = await exportLead(c.get('db'), c.req.valid('param').id);
    if (!data) throw leadNotFound();
    const file = leadExportFileName(data.lead.full_name, data.exported_at);
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'lead_exported',
      targetType: 'lead',
      targetId: data.lead.id,
      details: { name: data.lead.full_name },
    });
    c.header('Content-Disposition', `attachment; filename="${file}"`);
    return c.json(data, 200);
  })
  .openapi(eraseRoute, async (c) => {
    const { id } = c.req.valid('param');
    const erased = await eraseLead(c.get('db'), id);
    if (!erased) throw leadNotFound();
    const { appointment_ids, ...counts } = erased;
    // The copies of their calls in the team's calendars, removed now if they answer within 5 s.
    const { config, vault, logger } = c.get('deps');
    const unreachable = await writeCopiesNow(calendarAccess(c.get('db'), config, vault(), logger), appointment_ids, 5_000);
    const result = { ...counts, calendars_unreachable: unreachable };
    // The log keeps that someone was erased, by whom and when; their name and values went with
    // the erasure (the earlier entries about them now read "[erased]" too).
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'lead_erased',
      targetType: 'lead',
      targetId: id,
      details: { erased: true, name: ERASED, leads_removed: result.leads_removed },
    });
    // Who erased someone, and when, stays on record; whom does not.
    c.get('deps').logger.info({ event: 'lead_erased', by: c.get('user').id, requestId: c.get('requestId') }, 'a person was erased');
    return c.json(result, 200);
  })
  .openapi(appointmentCountsRoute, async (c) => {
    const counts = await countLeadAppointments(c.get('db'), c.req.valid('param').id, c.get('deps').config.businessTimeZone);
    if (!counts) throw leadNotFound();
    return c.json(counts, 200);
  })
  .openapi(duplicatesRoute, async (c) => {
    const leads = await listDuplicates(c.get('db'), c.req.valid('param').id);
    if (!leads) throw leadNotFound();
    return c.json({ leads }, 200);
  })
  .openapi(mergeRoute, async (c) => {
    const { other_id, keep } = c.req.valid('json');
    const merged = await getLead(c.get('db'), other_id);
    const lead = await mergeLeads(
      c.get('db'),
      c.req.valid('param').id,
      c.req.valid('json'),
      c.get('user').id,
      c.get('deps').config.businessTimeZone,
    ).catch((err: unknown) => {
      if (err instanceof MergeRefused) throw new AppError('bad_request', err.message, { other_id: err.message });
      throw err;
    });
    if (!lead) throw leadNotFound();
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'leads_merged',
      targetType: 'lead',
      targetId: lead.id,
      details: { name: lead.full_name, merged: other_id, merged_name: merged?.full_name ?? null, keep },
    });
    return c.json(lead, 200);
  });
