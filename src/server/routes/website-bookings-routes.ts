import { bulkCancelRequestSchema, bulkCancelResponseSchema, websiteNetworksResponseSchema } from '#shared/schemas/appointment';
import { actorOf } from '../audit/audit-log.ts';
import { createAdminRoute } from '../auth/admin-route.ts';
import { requireNetwork } from '../booking/booking-network.ts';
import { appointmentMailOf } from '../db/queries/appointments-queries.ts';
import {
  cancelWebsiteBookings,
  countWebsiteBookings,
  listBookingNetworks,
  type BookingCriteria,
} from '../db/queries/website-bookings-queries.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const bulkCancelRoute = createAdminRoute({
  method: 'post',
  path: '/api/appointments/bulk-cancel',
  tags: ['appointments'],
  summary: 'Cancel the upcoming website bookings of one network or time window at once',
  description:
    'Cancels, in one transaction, every scheduled call still to come that a visitor booked on the website from `network` ' +
    '(an IPv4 /24 or IPv6 /64, or an address in it) and/or between `booked_from` and `booked_to` (when it was booked, both ' +
    'included). The leads are kept and marked "Booking cancelled as suspected abuse"; their booking links can book no more. ' +
    'Nobody is emailed unless `notify` is true. One audit entry records the count and the criteria. `dry_run` only counts.',
  request: { body: { required: true, ...jsonContent(bulkCancelRequestSchema, 'Which bookings, and whether to email them') } },
  responses: {
    200: jsonContent(bulkCancelResponseSchema, 'How many calls were (or would be) cancelled'),
    ...errorResponses({ 400: 'Invalid input' }),
  },
});

const networksRoute = createAdminRoute({
  method: 'get',
  path: '/api/appointments/website-networks',
  tags: ['appointments'],
  summary: 'The networks with the most upcoming website bookings (at most 10)',
  responses: { 200: jsonContent(websiteNetworksResponseSchema, 'Networks, most upcoming bookings first') },
});

export const websiteBookingRoutes = createRouter()
  .openapi(bulkCancelRoute, async (c) => {
    const body = c.req.valid('json');
    const timeZone = c.get('deps').config.businessTimeZone;
    const network = requireNetwork(body.network);
    const criteria: BookingCriteria = { network, bookedFrom: body.booked_from, bookedTo: body.booked_to };
    if (body.dry_run === true) {
      return c.json({ count: await countWebsiteBookings(c.get('db'), criteria, timeZone), dry_run: true, network: network ?? null }, 200);
    }
    const count = await cancelWebsiteBookings(c.get('db'), criteria, {
      actor: actorOf(c),
      mail: body.notify ? appointmentMailOf(c.get('deps').config) : undefined,
      timeZone,
      criteria: { network: network ?? null, booked_from: body.booked_from ?? null, booked_to: body.booked_to ?? null, notify: body.notify },
    });
    c.get('deps').logger.info(
      { event: 'website_bookings_cancelled', count, notify: body.notify, requestId: c.get('requestId') },
      'cancelled website bookings in bulk',
    );
    if (body.notify && count > 0) c.get('deps').outbox.nudge();
    return c.json({ count, dry_run: false, network: network ?? null }, 200);
  })
  .openapi(networksRoute, async (c) => {
    return c.json({ networks: await listBookingNetworks(c.get('db'), c.get('deps').config.businessTimeZone) }, 200);
  });
