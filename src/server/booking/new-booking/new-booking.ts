import type { CreateBookingRequest, PendingBooking, PublicBooking } from '#shared/schemas/booking';
import { isoInZone } from '#shared/zoned-time';
import { appointmentMailOf } from '../../db/queries/appointments-queries.ts';
import { AppError } from '../../lib/app-error.ts';
import { networkKey } from '../../lib/client-address.ts';
import { admitWebsiteBooking, callUs, sitePhone } from '../admission.ts';
import { bookOrUndo } from '../book-slot.ts';
import { LINK_INVALID, requireBookableType, requireBookingOpen, requireNoCallBooked, visitorZoneOf } from '../booking-link.ts';
import { loadLink, type LinkRequest } from '../link-context.ts';
import { bookedView, linkView } from '../link-view.ts';
import { assignmentOrder, hostsOf, requireOpenSlot } from '../open-slot.ts';
import { chosenTeam } from './choose-host.ts';
import { holdForConfirmation } from './hold.ts';

/**
 * A visitor books a call through the link from the lead form (POST /api/public/bookings): the
 * link may book (booking-link.ts), the time is open for the people the call may go to
 * (choose-host.ts, open-slot.ts), the website's limits let it in (admission.ts); then it is
 * either held for the visitor's emailed confirmation (hold.ts) or booked with the first of them
 * still free (book-slot.ts, where the database settles a race for the time).
 */

/** Held: the answer is 202 pending; booked: 201 with the call. Either way the outbox has mail to send. */
export type NewBooking = { held: true; answer: PendingBooking } | { held: false; answer: PublicBooking & { emailed: boolean } };

export async function handleNewBooking(request: LinkRequest, body: CreateBookingRequest): Promise<NewBooking> {
  const { db, config, clientIp } = request;
  const { row, settings, hash, timeZone, hosts: stored } = await loadLink(request, body.booking_token, body.start);
  requireBookingOpen(settings);
  if (row.expired) throw new AppError('not_found', LINK_INVALID);
  requireNoCallBooked(row);
  requireBookableType(settings, body.type);
  // No change limit here: a link books one call; moving and cancelling it are limited. The
  // website's booking limits count what an address, a network and the whole site book.
  const team = chosenTeam(settings, hostsOf(settings, stored), body.host_id);
  const { free, ...at } = requireOpenSlot(settings, timeZone, body.start, team);
  const visitorTimeZone = visitorZoneOf(body.time_zone);
  const admission = await admitWebsiteBooking(request, settings);
  const link = { token: body.booking_token, settings, timeZone };
  const start = Date.parse(body.start);
  if (admission.confirm) {
    const held = await holdForConfirmation(request, {
      token: body.booking_token,
      hash,
      ...at,
      type: body.type,
      visitorTimeZone,
      hostId: body.host_id ?? null,
    });
    if (!held) {
      await admission.undo();
      throw new AppError('rate_limited', `We cannot email you a confirmation link right now. ${callUs(await sitePhone(db, config))}`);
    }
    const view = await linkView(db, config, row, link);
    const pending = {
      start: isoInZone(start, timeZone),
      end: isoInZone(start + settings.slot_minutes * 60_000, timeZone),
      type: body.type,
      expires_at: held.expiresAt,
    };
    // A hold exists only with its confirmation email queued (holdBooking).
    return { held: true, answer: { ...view, status: 'pending' as const, expires_at: held.expiresAt, pending, emailed: true } };
  }
  const made = await bookOrUndo(
    db,
    appointmentMailOf(config),
    {
      hash,
      ...at,
      type: body.type,
      token: body.booking_token,
      settings,
      timeZone,
      team,
      hosts: assignmentOrder(free, stored, row.owner_id),
      start: body.start,
      network: networkKey(clientIp),
      visitorTimeZone,
    },
    admission.undo,
  );
  return { held: false, answer: await bookedView(config.site, row, link, made, { start, type: body.type }) };
}
