import * as z from 'zod';
import { createOwnerRoute } from '../auth/admin-route.ts';
import { jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const warningsSchema = z.object({
  warnings: z.array(z.object({ code: z.enum(['untrusted_proxy', 'plain_http', 'replies_unverified']), message: z.string() })),
});

const warningsRoute = createOwnerRoute({
  method: 'get',
  path: '/api/settings/deployment',
  tags: ['settings'],
  summary:
    'Set-up mistakes this process has seen in its requests (a proxy TRUST_PROXY does not trust, plain http from afar), for the owners’ banner',
  responses: { 200: jsonContent(warningsSchema, 'The warnings (none when all is well)') },
});

export const deploymentRoutes = createRouter().openapi(warningsRoute, (c) =>
  c.json({ warnings: c.get('deps').deploymentWarnings?.list() ?? [] }, 200),
);
