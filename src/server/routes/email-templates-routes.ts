import * as z from 'zod';
import { EMAIL_TEMPLATES_MAX } from '#shared/constants';
import { fillMergeFields, mergeFieldsIn } from '#shared/rules/merge-fields';
import {
  emailTemplateIdParamSchema,
  emailTemplateListSchema,
  emailTemplateRequestSchema,
  emailTemplateSchema,
  templatePreviewRequestSchema,
  templatePreviewSchema,
  type EmailTemplate,
} from '#shared/schemas/email-template';
import type { Context } from 'hono';
import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { createAdminRoute, createOwnerRoute } from '../auth/admin-route.ts';
import {
  createEmailTemplate,
  deleteEmailTemplate,
  listEmailTemplates,
  updateEmailTemplate,
  type TemplateRefusal,
} from '../db/queries/email-templates-queries.ts';
import { mergeValuesFor } from '../db/queries/lead-messages-queries.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { mailSite } from '../mail/mail-context.ts';

const listRoute = createAdminRoute({
  method: 'get',
  path: '/api/email-templates',
  tags: ['email'],
  summary: 'The email templates everyone writing to a lead may start from, by name',
  responses: { 200: jsonContent(emailTemplateListSchema, 'Templates') },
});

const createTemplateRoute = createOwnerRoute({
  method: 'post',
  path: '/api/email-templates',
  tags: ['email'],
  summary: `Add an email template (names unique whatever their case; at most ${EMAIL_TEMPLATES_MAX})`,
  request: { body: { required: true, ...jsonContent(emailTemplateRequestSchema, 'The template') } },
  responses: {
    201: jsonContent(emailTemplateSchema, 'Added'),
    ...errorResponses({ 400: 'Invalid input, or an unknown merge field', 409: 'The name is taken, or there are too many templates' }),
  },
});

const updateRoute = createOwnerRoute({
  method: 'put',
  path: '/api/email-templates/{id}',
  tags: ['email'],
  summary: 'Change an email template',
  request: { params: emailTemplateIdParamSchema, body: { required: true, ...jsonContent(emailTemplateRequestSchema, 'The template') } },
  responses: {
    200: jsonContent(emailTemplateSchema, 'Saved'),
    ...errorResponses({ 400: 'Invalid input, or an unknown merge field', 404: 'No such template', 409: 'The name is taken' }),
  },
});

const deleteRoute = createOwnerRoute({
  method: 'delete',
  path: '/api/email-templates/{id}',
  tags: ['email'],
  summary: 'Remove an email template (messages written from it keep their words)',
  request: { params: emailTemplateIdParamSchema },
  responses: { 200: jsonContent(z.object({ id: z.uuid() }), 'Removed'), ...errorResponses({ 400: 'Invalid id', 404: 'No such template' }) },
});

const previewRoute = createAdminRoute({
  method: 'post',
  path: '/api/email-templates/preview',
  tags: ['email'],
  summary:
    'A subject and text with their merge fields filled in for a lead, as you would send them ({{booking_link}} stays: a link is made when sent)',
  request: { body: { required: true, ...jsonContent(templatePreviewRequestSchema, 'The text and the lead') } },
  responses: {
    200: jsonContent(templatePreviewSchema, 'Filled in'),
    ...errorResponses({ 400: 'Invalid input, or an unknown merge field', 404: 'No such lead' }),
  },
});

function refused(why: TemplateRefusal, name: string): AppError {
  if (why === 'not_found') return new AppError('not_found', 'Template not found.');
  if (why === 'too_many') return new AppError('conflict', `A firm keeps at most ${EMAIL_TEMPLATES_MAX} templates: remove one first.`);
  return new AppError('conflict', `A template named “${name}” already exists.`, { name: 'Choose another name' });
}

const audit = (c: Context<AppEnv>, template: Pick<EmailTemplate, 'id' | 'name'>, change: 'created' | 'changed' | 'removed') =>
  recordAudit(c.get('db'), actorOf(c), {
    action: 'settings_changed',
    targetType: 'settings',
    targetId: 'email_templates',
    details: { name: template.name, template: change, template_id: template.id },
  });

/** Settings → Email templates: the owners keep them, everyone writing to a lead uses them. */
export const emailTemplateRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json({ templates: await listEmailTemplates(c.get('db')) }, 200))
  .openapi(createTemplateRoute, async (c) => {
    const body = c.req.valid('json');
    const created = await createEmailTemplate(c.get('db'), c.get('user').id, body);
    if (typeof created === 'string') throw refused(created, body.name);
    await audit(c, created, 'created');
    return c.json(created, 201);
  })
  .openapi(updateRoute, async (c) => {
    const body = c.req.valid('json');
    const saved = await updateEmailTemplate(c.get('db'), c.req.valid('param').id, c.get('user').id, body);
    if (typeof saved === 'string') throw refused(saved, body.name);
    const { before, after } = saved;
    if (before.name !== after.name || before.subject !== after.subject || before.body !== after.body) await audit(c, after, 'changed');
    return c.json(after, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id } = c.req.valid('param');
    const name = await deleteEmailTemplate(c.get('db'), id);
    if (name === undefined) throw refused('not_found', '');
    await audit(c, { id, name }, 'removed');
    return c.json({ id }, 200);
  })
  .openapi(previewRoute, async (c) => {
    const { lead_id, subject, body } = c.req.valid('json');
    const user = c.get('user');
    const firmPhone = (await mailSite(c.get('db'), c.get('deps').config)).phone;
    const merge = await mergeValuesFor(c.get('db'), lead_id, { id: user.id, name: user.display_name }, firmPhone);
    if (!merge) throw new AppError('not_found', 'Lead not found.');
    const used = mergeFieldsIn(`${subject}\n${body}`);
    const empty = used.filter((field) => field !== 'booking_link' && merge.values[field].trim() === '');
    return c.json({ subject: fillMergeFields(subject, merge.values), body: fillMergeFields(body, merge.values), empty }, 200);
  });
