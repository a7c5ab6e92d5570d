import { websiteContentSchema, websiteResponseSchema, type WebsiteContent } from '#shared/schemas/website';
import { actorOf, changedFields, recordAudit } from '../audit/audit-log.ts';
import { createOwnerRoute } from '../auth/admin-route.ts';
import { getWebsiteContent, saveWebsiteContent } from '../db/queries/website-queries.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const websiteRoute = createOwnerRoute({
  method: 'get',
  path: '/api/website',
  tags: ['settings'],
  summary: 'What the public website says about the firm: its claims, brand and contact',
  responses: { 200: jsonContent(websiteResponseSchema, 'The words, and when they were last saved') },
});

const saveWebsiteRoute = createOwnerRoute({
  method: 'put',
  path: '/api/website',
  tags: ['settings'],
  summary:
    'Change what the public website says: the pages, their title and description, and the sitemap follow at once, without a rebuild (other processes within seconds)',
  request: { body: { required: true, ...jsonContent(websiteContentSchema, 'Every word, at once') } },
  responses: { 200: jsonContent(websiteResponseSchema, 'Saved and live'), ...errorResponses({ 400: 'Invalid input' }) },
});

const answer = (content: WebsiteContent, updatedAt: string | null) => ({
  ...content,
  updated_at: updatedAt === null ? null : new Date(updatedAt).toISOString(),
});

export const websiteRoutes = createRouter()
  .openapi(websiteRoute, async (c) => {
    const { content, updatedAt } = await getWebsiteContent(c.get('db'), c.get('deps').config.site);
    return c.json(answer(content, updatedAt), 200);
  })
  .openapi(saveWebsiteRoute, async (c) => {
    const site = c.get('deps').config.site;
    const before = await getWebsiteContent(c.get('db'), site);
    await saveWebsiteContent(c.get('db'), c.req.valid('json'));
    const saved = await getWebsiteContent(c.get('db'), site);
    c.get('deps').websitePages?.apply(saved.content, saved.updatedAt);
    const changes = changedFields(before.content, saved.content, Object.keys(saved.content) as (keyof WebsiteContent & string)[]);
    if (Object.keys(changes).length > 0) {
      await recordAudit(c.get('db'), actorOf(c), {
        action: 'settings_changed',
        targetType: 'settings',
        targetId: 'website',
        details: { changes },
      });
    }
    return c.json(answer(saved.content, saved.updatedAt), 200);
  });
