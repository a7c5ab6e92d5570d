import { isIP } from 'node:net';
import { bulkCancelRequestSchema, bulkCancelResponseSchema, websiteNetworksResponseSchema } from '#shared/schemas/appointment';
import { actorOf } from '../audit/audit-log.ts';
import { createAdminRoute } from '../auth/admin-route.ts';
import { appointmentMailOf } from '../db/queries/appointments.ts';
import { cancelWebsiteBookings, countWebsiteBookings, listBookingNetworks, type BookingCriteria } from '../db/queries/website-bookings.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { networkKey } from '../lib/client-address.ts';

const NETWORK_INVALID = 'Enter an IP address or a network like 203.0.113.0/24';

/**
 * The network key a website booking was stored with (lib/client-address.ts, networkKey) for
 * what staff typed: an address (`203.0.113.7`) or its network (`203.0.113.0/24`,
 * `2001:db8:1:2::/64`, however the IPv6 address is written). Undefined for anything else.
 */
export function parseNetwork(text: string): string | undefined {
  const [address = '', prefix, ...rest] = text.trim().split('/');
  if (rest.length > 0) return undefined;
  const version = isIP(address);
  if (version === 0 || (prefix !== undefined && prefix !== (version === 4 ? '24' : '64'))) return undefined;
  return networkKey(address);
}

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
    let network: string | undefined;
    if (body.network !== undefined && body.network !== '') {
      network = parseNetwork(body.network);
      if (network === undefined) throw new AppError('validation_failed', NETWORK_INVALID, { network: NETWORK_INVALID });
    }
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
