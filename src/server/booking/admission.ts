import type { BookingSettings } from '#shared/schemas/booking';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { notifyBookingSpike } from '../db/queries/booking-holds-queries.ts';
import { hitRateLimitsUnlessOver, undoRateLimitHits } from '../db/queries/rate-limits-queries.ts';
import { getWebsiteContent } from '../db/queries/website-queries.ts';
import { AppError } from '../lib/app-error.ts';
import { networkKey, rateLimitKey } from '../lib/client-address.ts';

/**
 * Whether a website booking (POST /api/public/bookings) may go ahead, and how: the limits per
 * client address and network, and the firm-wide hourly count above which bookings wait for the
 * visitor's emailed confirmation (docs/security.md, "Calendar exhaustion"). Every counter is a
 * rate_limits row, so the figures hold across processes.
 */

/** A network (IPv4 /24, IPv6 /64) may book this many times what one address may. */
export const NETWORK_FACTOR = 5;
const DAY_SECONDS = 86_400;
const HOUR_SECONDS = 3_600;
const HOUR_KEY = 'booking-hour';

/** Who is booking: the open database, the configuration, the client's address. */
export type BookingRequest = { db: Db; config: Config; clientIp: string };

export type Admission = {
  /** The booking must wait for the visitor to confirm it from an email (a pending hold). */
  confirm: boolean;
  /** Takes back what this attempt counted: it booked and held nothing. */
  undo: () => Promise<void>;
};

export const callUs = (phone: string) => `Please call us at ${phone} to book your call.`;

/** The phone the website shows now (Settings → Website; SITE_PHONE until saved): the number a refused visitor is asked to call. */
export const sitePhone = async (db: Db, config: Config) => (await getWebsiteContent(db, config.site)).content.phone;

export const tooManyFromNetwork = (phone: string) => `Too many online bookings from your network today. ${callUs(phone)}`;
export const busyWithoutEmail = (phone: string) =>
  `We are receiving unusually many online bookings and cannot confirm yours by email right now. ${callUs(phone)}`;

export function spikeMessage(threshold: number, emailOn: boolean): string {
  const then = emailOn
    ? 'New ones now wait until the visitor confirms them by email.'
    : 'Email is off, so new ones are refused and visitors are asked to call.';
  return `Website bookings are unusually busy: more than ${threshold} this hour. ${then}`;
}

/**
 * Counts the attempt against the address's and the network's day (refusing it with 429 past
 * either) and against the firm's hour; tells the owners once when the hour passes the
 * threshold. Above it, or when the owners require it, the booking must be confirmed by email;
 * with email off that is impossible, and the visitor is asked to call (429).
 */
export async function admitWebsiteBooking(request: BookingRequest, settings: BookingSettings): Promise<Admission> {
  const { db, config, clientIp } = request;
  const emailOn = config.mail.smtp !== undefined;
  const undos: (() => Promise<void>)[] = [];
  const undo = async () => {
    for (const step of undos) await step();
  };

  if (config.bookingRateLimit > 0) {
    const address = `booking-address:${rateLimitKey(clientIp)}`;
    const network = `booking-network:${networkKey(clientIp)}`;
    const day = await hitRateLimitsUnlessOver(
      db,
      [
        { key: address, limit: config.bookingRateLimit },
        { key: network, limit: config.bookingRateLimit * NETWORK_FACTOR },
      ],
      DAY_SECONDS,
    );
    if (day.over.length > 0) {
      throw new AppError('rate_limited', tooManyFromNetwork(await sitePhone(db, config)), undefined, {
        'Retry-After': String(day.retryAfterSeconds),
      });
    }
    undos.push(() => undoRateLimitHits(db, [address, network], [], day.windowStart));
  }

  let busy = false;
  const threshold = config.bookingHoldAbovePerHour;
  if (threshold > 0) {
    const hour = await hitRateLimitsUnlessOver(db, [{ key: HOUR_KEY, limit: null }], HOUR_SECONDS);
    undos.push(() => undoRateLimitHits(db, [HOUR_KEY], [], hour.windowStart));
    busy = (hour.counts.get(HOUR_KEY) ?? 0) > threshold;
    if (busy) await notifyBookingSpike(db, spikeMessage(threshold, emailOn));
    if (busy && !emailOn) {
      await undo();
      throw new AppError('rate_limited', busyWithoutEmail(await sitePhone(db, config)), undefined, {
        'Retry-After': String(hour.retryAfterSeconds),
      });
    }
  }

  // Without email the owners' switch cannot be on (saving it is refused); one left on from
  // before email was turned off is not obeyed, rather than refuse every booking.
  return { confirm: busy || (settings.require_email_confirmation && emailOn), undo };
}
