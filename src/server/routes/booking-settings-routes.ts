import type { Context } from 'hono';
import { bookingSettingsResponseSchema, saveBookingSettingsSchema, type BookingSettings } from '#shared/schemas/booking';
import { actorOf, changedFields, recordAudit } from '../audit/audit-log.ts';
import { createOwnerRoute } from '../auth/admin-route.ts';
import { changeBookingSettings } from '../booking/change-booking-settings.ts';
import { getBookingSettings } from '../db/queries/bookings-queries.ts';
import type { AppEnv } from '../http/context.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const settingsRoute = createOwnerRoute({
  method: 'get',
  path: '/api/booking-settings',
  tags: ['booking'],
  summary: 'When visitors may book a call',
  responses: { 200: jsonContent(bookingSettingsResponseSchema, 'Booking settings') },
});

const saveSettingsRoute = createOwnerRoute({
  method: 'put',
  path: '/api/booking-settings',
  tags: ['booking'],
  summary: 'Change when visitors may book a call (applies at once, in every process)',
  request: { body: { required: true, ...jsonContent(saveBookingSettingsSchema, 'Booking settings') } },
  responses: {
    200: jsonContent(bookingSettingsResponseSchema, 'Saved'),
    ...errorResponses({ 400: 'Invalid input, or the email confirmation switch with email off' }),
  },
});

const emailOn = (c: Context<AppEnv>) => c.get('deps').config.mail.smtp !== undefined;
const settingsResponse = (c: Context<AppEnv>, settings: BookingSettings) => ({
  ...settings,
  time_zone: c.get('deps').config.businessTimeZone,
  email_on: emailOn(c),
});

/** The owners' booking settings (Settings → Booking): when visitors may book, and how. */
export const bookingSettingsRoutes = createRouter()
  .openapi(settingsRoute, async (c) => {
    const settings = await getBookingSettings(c.get('db'));
    return c.json(settingsResponse(c, settings), 200);
  })
  .openapi(saveSettingsRoute, async (c) => {
    const { before, settings } = await changeBookingSettings(c.get('db'), c.req.valid('json'), { emailOn: emailOn(c) });
    const changes = changedFields(before, settings, Object.keys(settings) as (keyof typeof settings & string)[]);
    if (Object.keys(changes).length > 0) {
      await recordAudit(c.get('db'), actorOf(c), {
        action: 'settings_changed',
        targetType: 'settings',
        targetId: 'booking',
        details: { changes },
      });
    }
    return c.json(settingsResponse(c, settings), 200);
  });
