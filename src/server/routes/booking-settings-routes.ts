import type { Context } from 'hono';
import { bookingSettingsResponseSchema, saveBookingSettingsSchema, type BookingSettings } from '#shared/schemas/booking';
import { actorOf, changedFields, recordAudit } from '../audit/audit-log.ts';
import { createOwnerRoute } from '../auth/admin-route.ts';
import { getBookingSettings, saveBookingSettings } from '../db/queries/bookings-queries.ts';
import type { AppEnv } from '../http/context.ts';
import type { Db } from '../db/client.ts';
import { isActiveMember } from '../db/queries/availability-queries.ts';
import { AppError } from '../http/errors.ts';
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

const EMAIL_OFF_SWITCH = 'Email is off on this server (no SMTP_URL), so no confirmation link could be sent. Turn email on first.';

const NOT_ON_TEAM = 'Choose people on the team';

/** Everyone chosen to take website calls is an active team member (400 otherwise). */
async function requireTeamMembers(db: Db, ids: readonly string[]) {
  for (const id of ids)
    if (!(await isActiveMember(db, id)))
      throw new AppError('validation_failed', 'That person is not an active team member.', { website_host_ids: NOT_ON_TEAM });
}

/** The owners' booking settings (Settings → Booking): when visitors may book, and how. */
export const bookingSettingsRoutes = createRouter()
  .openapi(settingsRoute, async (c) => {
    const settings = await getBookingSettings(c.get('db'));
    return c.json(settingsResponse(c, settings), 200);
  })
  .openapi(saveSettingsRoute, async (c) => {
    const before = await getBookingSettings(c.get('db'));
    const body = c.req.valid('json');
    const require_email_confirmation = body.require_email_confirmation ?? before.require_email_confirmation;
    // Turning it on (or saving it on) with email off would hold every booking with no link to click.
    if (require_email_confirmation && !emailOn(c) && body.require_email_confirmation !== undefined) {
      throw new AppError('validation_failed', EMAIL_OFF_SWITCH, { require_email_confirmation: EMAIL_OFF_SWITCH });
    }
    const hosts = {
      website_hosts: body.website_hosts ?? before.website_hosts,
      website_host_ids: body.website_host_ids ?? before.website_host_ids,
      visitors_choose_host: body.visitors_choose_host ?? before.visitors_choose_host,
      jitsi_links: body.jitsi_links ?? before.jitsi_links,
    };
    if (hosts.website_hosts === 'chosen' && body.website_host_ids !== undefined)
      await requireTeamMembers(c.get('db'), body.website_host_ids);
    await saveBookingSettings(c.get('db'), { ...body, require_email_confirmation, ...hosts });
    const settings = await getBookingSettings(c.get('db'));
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
