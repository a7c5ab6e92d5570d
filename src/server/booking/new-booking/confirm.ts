import type { PublicBooking } from '#shared/schemas/booking';
import { isoInZone } from '#shared/zoned-time';
import { appointmentMailOf } from '../../db/queries/appointments-queries.ts';
import { markHoldConfirmed, readHold } from '../../db/queries/booking-holds-queries.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashToken } from '../../lib/secret-token.ts';
import { bookOrUndo } from '../book-slot.ts';
import { requireBookableType, requireBookingOpen, requireNoCallBooked } from '../booking-link.ts';
import { loadLink, type LinkRequest } from '../link-context.ts';
import { bookedView, linkView } from '../link-view.ts';
import { assignmentOrder, hostsOf, requireOpenSlot } from '../open-slot.ts';
import { heldTeam } from './choose-host.ts';
import { HOLD_EXPIRED, HOLD_UNKNOWN } from './hold.ts';

/**
 * The visitor confirms a held booking with the code from our email (POST
 * /api/public/bookings/{token}/confirm): the held time is booked if it is still open, by the
 * same rules as a booking made at once; of two holds of one time, the first confirmed gets it.
 * Clicked twice, the second answers what the first did (and books nothing: `booked` false).
 */
export async function confirmHeldBooking(
  request: LinkRequest,
  token: string,
  code: string,
): Promise<{ booked: boolean; answer: PublicBooking }> {
  const { db, config } = request;
  const timeZone = config.businessTimeZone;
  const hash = hashToken(token);
  const hold = await readHold(db, hash, hashToken(code), timeZone);
  if (!hold) throw new AppError('not_found', HOLD_UNKNOWN);
  const start = isoInZone(hold.start, timeZone);
  const { row, settings, hosts: stored } = await loadLink(request, token, start);
  const link = { token, settings, timeZone };
  if (hold.confirmed && row.appointment && row.appointment.id === hold.appointment_id)
    return { booked: false, answer: await linkView(db, config, row, link) };
  if (hold.expired) throw new AppError('unprocessable', HOLD_EXPIRED);
  requireBookingOpen(settings);
  requireNoCallBooked(row);
  requireBookableType(settings, hold.type);
  const team = heldTeam(hostsOf(settings, stored), hold.host_id);
  const { free, ...at } = requireOpenSlot(settings, timeZone, start, team);
  const made = await bookOrUndo(
    db,
    appointmentMailOf(config),
    {
      hash,
      ...at,
      type: hold.type,
      token,
      settings,
      timeZone,
      team,
      hosts: assignmentOrder(free, stored, row.owner_id),
      start,
      network: hold.client_network,
      visitorTimeZone: hold.visitor_time_zone,
    },
    async () => {},
  );
  await markHoldConfirmed(db, hash, made.id);
  return { booked: true, answer: await bookedView(config.site, row, link, made, { start: hold.start, type: hold.type }) };
}
