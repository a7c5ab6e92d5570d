import { emailPreferencesSchema, updateEmailPreferencesSchema } from '#shared/schemas/email';
import { createAdminRoute } from '../auth/admin-route.ts';
import { getEmailPreferences, setEmailPreferences } from '../db/queries/users.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const getRoute = createAdminRoute({
  method: 'get',
  path: '/api/account/preferences',
  tags: ['account'],
  summary: "The signed-in admin's email preferences",
  responses: { 200: jsonContent(emailPreferencesSchema, 'Preferences') },
});

const updateRoute = createAdminRoute({
  method: 'patch',
  path: '/api/account/preferences',
  tags: ['account'],
  summary: 'Change the preferences sent (only those)',
  request: { body: { required: true, ...jsonContent(updateEmailPreferencesSchema, 'The preferences to change') } },
  responses: { 200: jsonContent(emailPreferencesSchema, 'Preferences'), ...errorResponses({ 400: 'Invalid input' }) },
});

// The session's admin exists (requireUser just read them), unless deleted this very moment.
const gone = () => new AppError('unauthorized', 'Please sign in.');

export const accountRoutes = createRouter()
  .openapi(getRoute, async (c) => {
    const preferences = await getEmailPreferences(c.var.db, c.var.user.id);
    if (!preferences) throw gone();
    return c.json(preferences, 200);
  })
  .openapi(updateRoute, async (c) => {
    const preferences = await setEmailPreferences(c.var.db, c.var.user.id, c.req.valid('json'));
    if (!preferences) throw gone();
    return c.json(preferences, 200);
  });
