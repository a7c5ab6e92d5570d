import * as z from 'zod';
import { leadIdParamSchema } from '#shared/schemas/lead';
import { storableText } from '#shared/schemas/text';
import { createAdminRoute } from '../auth/admin-route.ts';
import { markLeadRepliesRead } from '../conversations/reply-reading.ts';
import { notAStopRequest } from '../conversations/stop-request.ts';
import { readAttachment } from '../db/queries/inbound-emails-queries.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent, mediaContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const attachmentParams = z.object({ id: z.uuid('Invalid message id'), attachmentId: z.uuid('Invalid attachment id') });

const attachmentRoute = createAdminRoute({
  method: 'get',
  path: '/api/replies/{id}/attachments/{attachmentId}',
  tags: ['leads'],
  summary: 'Download a file that came with a reply (always as a download, never shown from our origin)',
  request: { params: attachmentParams },
  responses: {
    200: mediaContent('application/octet-stream', 'The file as it came', z.string()),
    ...errorResponses({ 400: 'Invalid id', 404: 'No such file' }),
  },
});

const readRoute = createAdminRoute({
  method: 'post',
  path: '/api/leads/{id}/replies/read',
  tags: ['leads'],
  summary: 'Mark the lead’s replies read (their page showed them): those received up to `up_to` (all, without it)',
  request: {
    params: leadIdParamSchema,
    query: z.object({ up_to: storableText().datetime({ offset: true, message: 'Invalid time' }).optional() }),
  },
  responses: {
    200: jsonContent(z.object({ marked: z.number().int() }), 'How many were unread'),
    ...errorResponses({ 400: 'Invalid id', 404: 'No such lead' }),
  },
});

const stopParams = z.object({ id: z.uuid('Invalid lead id'), replyId: z.uuid('Invalid message id') });

const notStopRoute = createAdminRoute({
  method: 'post',
  path: '/api/leads/{id}/replies/{replyId}/not-a-stop-request',
  tags: ['leads'],
  summary: 'Say a reply that seemed to ask us to stop writing does not (the lead page’s notice goes)',
  request: { params: stopParams },
  responses: {
    200: jsonContent(z.object({ id: z.uuid() }), 'Noted'),
    ...errorResponses({ 400: 'Invalid id', 404: 'No such reply asking to stop on this lead' }),
  },
});

/** A file name as a Content-Disposition header carries it: RFC 6266 with an ASCII fallback. */
function disposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** What replies bring: their files, and whether anyone has read them. */
export const replyRoutes = createRouter()
  .openapi(attachmentRoute, async (c) => {
    const { id, attachmentId } = c.req.valid('param');
    const file = await readAttachment(c.get('db'), id, attachmentId);
    if (!file) throw new AppError('not_found', 'File not found.');
    // Bytes from a stranger: a download, never a page of ours (no sniffing, no scripts, nothing cached).
    c.header('Content-Type', 'application/octet-stream');
    c.header('Content-Disposition', disposition(file.filename));
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Content-Security-Policy', "default-src 'none'; sandbox");
    c.header('Cache-Control', 'private, no-store');
    return c.body(new Uint8Array(file.content), 200);
  })
  .openapi(notStopRoute, async (c) => {
    const { id, replyId } = c.req.valid('param');
    await notAStopRequest(c.get('db'), id, replyId);
    return c.json({ id: replyId }, 200);
  })
  .openapi(readRoute, async (c) => {
    const marked = await markLeadRepliesRead(c.get('db'), c.req.valid('param').id, c.req.valid('query').up_to);
    return c.json({ marked }, 200);
  });
