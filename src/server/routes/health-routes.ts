import * as z from 'zod';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { DATABASE_FAULT_MESSAGES } from '../db/database-faults.ts';
import { execute } from '../db/sql.ts';
import { errorBody } from '../http/errors.ts';
import { createPublicRoute, errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

/** Not behind withDatabase: it answers whether the database is there, rather than needing it. */
const healthRoute = createPublicRoute({
  method: 'get',
  path: '/api/health',
  tags: ['system'],
  summary: 'Says whether the service and its database are ready',
  responses: {
    200: jsonContent(z.object({ status: z.literal('ok') }), 'Ready'),
    ...errorResponses({ 503: 'Starting or database unavailable' }),
  },
});

const PROBE_EVERY_MS = 1000;
const PROBE_TIMEOUT_MS = 2000;
type Probe = { at: number; result: Promise<boolean> };
const probes = new WeakMap<Database, Probe>();

/**
 * Whether the database answers `select 1`. One probe at most per second, shared by every
 * caller meanwhile, so a load balancer polling health costs the database nothing much.
 */
function databaseAnswers(database: Database): Promise<boolean> {
  const last = probes.get(database);
  if (last && performance.now() - last.at < PROBE_EVERY_MS) return last.result;
  const result = Promise.race([
    execute(database.db, sql`select 1`).then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), PROBE_TIMEOUT_MS).unref()),
  ]).catch(() => false);
  probes.set(database, { at: performance.now(), result });
  return result;
}

export const healthRoutes = createRouter().openapi(healthRoute, async (c) => {
  const database = c.get('deps').database();
  if (!database) {
    return c.json(errorBody(c, 'service_unavailable', 'The database is not ready yet.'), 503);
  }
  if (!(await databaseAnswers(database))) {
    return c.json(errorBody(c, 'service_unavailable', DATABASE_FAULT_MESSAGES.unavailable), 503);
  }
  return c.json({ status: 'ok' as const }, 200);
});
