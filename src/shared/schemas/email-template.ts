import * as z from 'zod';
import { EMAIL_TEMPLATE_NAME_MAX } from '../constants.ts';
import { MERGE_FIELDS } from '../rules/merge-fields.ts';
import { messageBodySchema, messageSubjectSchema } from './lead-workspace.ts';
import { storableText } from './text.ts';

/**
 * Email templates (Settings → Email templates): the owners write them, everyone writing to a
 * lead starts from one. Subject and text hold merge fields (`{{first_name}}`…), filled in for
 * the lead when the message is written.
 */
export const emailTemplateRequestSchema = z
  .object({
    name: storableText({ error: 'Name is required' })
      .trim()
      .min(1, { message: 'Name is required', abort: true })
      .max(EMAIL_TEMPLATE_NAME_MAX, `Name must be at most ${EMAIL_TEMPLATE_NAME_MAX} characters`),
    subject: messageSubjectSchema,
    body: messageBodySchema,
  })
  .meta({ id: 'EmailTemplateRequest' });
export type EmailTemplateRequest = z.infer<typeof emailTemplateRequestSchema>;

export const emailTemplateSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    subject: z.string(),
    body: z.string(),
    updated_at: z.string(),
    /** Who saved it last (null for the defaults, and once their account is gone). */
    updated_by_name: z.string().nullable(),
  })
  .meta({ id: 'EmailTemplate' });
export type EmailTemplate = z.infer<typeof emailTemplateSchema>;

export const emailTemplateListSchema = z.object({ templates: z.array(emailTemplateSchema) }).meta({ id: 'EmailTemplateList' });
export type EmailTemplateList = z.infer<typeof emailTemplateListSchema>;

export const emailTemplateIdParamSchema = z.object({ id: z.uuid('Invalid template id') });

/** A subject and text filled in for a real lead, as the writer would send them. */
export const templatePreviewRequestSchema = z
  .object({ lead_id: z.uuid('Invalid lead id'), subject: messageSubjectSchema, body: messageBodySchema })
  .meta({ id: 'TemplatePreviewRequest' });
export type TemplatePreviewRequest = z.infer<typeof templatePreviewRequestSchema>;

export const templatePreviewSchema = z
  .object({
    subject: z.string(),
    /** `{{booking_link}}` stays as written: a link is made only when the message is sent. */
    body: z.string(),
    /** Fields the text uses that have nothing to fill in for this lead (no property address yet): they come out empty. */
    empty: z.array(z.enum(MERGE_FIELDS)),
  })
  .meta({ id: 'TemplatePreview' });
export type TemplatePreview = z.infer<typeof templatePreviewSchema>;
