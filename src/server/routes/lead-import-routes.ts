import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { LEAD_IMPORT_MAX_BYTES, LEAD_IMPORT_PATH, leadImportRequestSchema, leadImportResultSchema } from '#shared/schemas/lead-import';
import { createAdminRoute } from '../auth/admin-route.ts';
import { importLeads } from '../db/queries/lead-import-queries.ts';
import { bodyLimit } from '../http/body-limit.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { checkImportRow } from '../lib/lead-import-rows.ts';

const MAX_MB = LEAD_IMPORT_MAX_BYTES / 1024 / 1024;

/** Read only after the session is checked: the API's 64 KB limit does not apply here (app.ts). */
const importBodyLimit = bodyLimit(LEAD_IMPORT_MAX_BYTES, () => {
  throw new AppError('payload_too_large', `The import must be at most ${MAX_MB} MB. Split the file and import each part.`);
});

const importRoute = createAdminRoute(
  {
    method: 'post',
    path: LEAD_IMPORT_PATH,
    tags: ['leads'],
    summary: `Import up to 10,000 leads from a CSV file's rows, all or nothing (body up to ${MAX_MB} MB); dry_run checks them and stores nothing`,
    request: {
      body: { required: true, ...jsonContent(leadImportRequestSchema, 'The rows, and what to do with leads whose email exists') },
    },
    responses: {
      200: jsonContent(leadImportResultSchema, 'The report (dry run), or what was stored'),
      ...errorResponses({
        400: 'Invalid input, or rows with errors (the report is in `import_report`; nothing was stored)',
        413: `Body over ${MAX_MB} MB`,
      }),
    },
  },
  [importBodyLimit],
);

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export const leadImportRoutes = createRouter().openapi(importRoute, async (c) => {
  const body = c.req.valid('json');
  const now = Date.now();
  const timeZone = c.get('deps').config.businessTimeZone;
  const rows = body.rows.map((row, i) => checkImportRow(row, body.first_row + i, { timeZone, now }));
  const { stored, result } = await importLeads(c.get('db'), rows, {
    duplicates: body.duplicates,
    dryRun: body.dry_run,
    adminId: c.get('user').id,
    file: body.file_name || null,
  });
  if (!stored && !body.dry_run) {
    // docs/product-rules.md, "Importing leads": all or nothing.
    const message = `${plural(result.error_rows, 'row has', 'rows have')} errors. Nothing was imported.`;
    throw new AppError('validation_failed', message, undefined, undefined, { import_report: result });
  }
  if (stored) {
    const { total, created, updated, skipped } = result;
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'leads_imported',
      targetType: 'lead',
      details: { file: body.file_name || null, duplicates: body.duplicates, total, created, updated, skipped },
    });
  }
  return c.json(result, 200);
});
