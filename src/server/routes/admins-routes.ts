import { adminListSchema } from '#shared/schemas/lead-workspace';
import { createAdminRoute } from '../auth/admin-route.ts';
import { listAdmins } from '../db/queries/users-queries.ts';
import { jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const listRoute = createAdminRoute({
  method: 'get',
  path: '/api/admins',
  tags: ['account'],
  summary: 'Every active admin (id, email and name, by name): whom a lead can be assigned to',
  responses: { 200: jsonContent(adminListSchema, 'The admins') },
});

export const adminRoutes = createRouter().openapi(listRoute, async (c) => c.json({ admins: await listAdmins(c.get('db')) }, 200));
