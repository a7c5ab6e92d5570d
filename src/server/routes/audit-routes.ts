import * as z from 'zod';
import { stream } from 'hono/streaming';
import { AUDIT_ACTIONS, auditPageSchema, auditQuerySchema } from '#shared/schemas/audit';
import { createOwnerRoute } from '../auth/admin-route.ts';
import { iterateAuditEntries, listAuditEntries } from '../db/queries/audit-log-queries.ts';
import { errorResponses, jsonContent, mediaContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { csvRow } from '#shared/csv-write';
import { deviceName } from '#shared/device-name';

/** The audit log, for owners: read with filters and pages, or all of it as CSV. Nothing here changes it. */

const listRoute = createOwnerRoute({
  method: 'get',
  path: '/api/audit',
  tags: ['audit'],
  summary: 'Audit log entries, newest first, filtered by person, action and dates; keyset pages (cursor)',
  request: { query: auditQuerySchema },
  responses: { 200: jsonContent(auditPageSchema, 'A page of entries'), ...errorResponses({ 400: 'Invalid input' }) },
});

const exportQuerySchema = auditQuerySchema.omit({ cursor: true, limit: true });

const exportRoute = createOwnerRoute({
  method: 'get',
  path: '/api/audit/export',
  tags: ['audit'],
  summary: 'Every entry the filters match, newest first, as CSV',
  request: { query: exportQuerySchema },
  responses: { 200: mediaContent('text/csv', 'CSV', z.string()), ...errorResponses({ 400: 'Invalid input' }) },
});

const HEADER = ['When (UTC)', 'Who', 'Email', 'Action', 'Target', 'Target id', 'Details', 'IP', 'Device', 'User agent', 'API key'];

/** Who acted, as the page says it: their name, else the email they used (a removed account, a failed sign-in), else the system. */
const who = (e: { actor_id: string | null; actor_name: string | null; actor_email: string | null }) =>
  e.actor_name ?? e.actor_email ?? (e.actor_id ? 'a removed account' : 'system');

export const auditRoutes = createRouter()
  .openapi(listRoute, async (c) =>
    c.json(await listAuditEntries(c.get('db'), c.req.valid('query'), c.get('deps').config.businessTimeZone), 200),
  )
  .openapi(exportRoute, (c) => {
    const db = c.get('db');
    const filter = c.req.valid('query');
    const timeZone = c.get('deps').config.businessTimeZone;
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`);
    return stream(c, async (out) => {
      await out.write(csvRow(HEADER));
      for await (const batch of iterateAuditEntries(db, filter, timeZone)) {
        if (out.aborted) return;
        // csvRow keeps a cell that starts like a formula from running in a spreadsheet.
        await out.write(
          batch
            .map((e) =>
              csvRow([
                e.at,
                who(e),
                e.actor_email,
                AUDIT_ACTIONS[e.action],
                e.target_type,
                e.target_id,
                JSON.stringify(e.details),
                e.ip,
                // A person's device; the system's entries carry the tool's name there (npm run admin), not a device.
                e.actor_email ? deviceName(e.user_agent) : null,
                e.user_agent,
                e.api_key_name,
              ]),
            )
            .join(''),
        );
      }
    });
  });
