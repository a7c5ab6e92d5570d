import type { PublicBooking } from '#shared/schemas/booking';
import { appointmentMailOf, changeAppointment } from '../db/queries/appointments-queries.ts';
import { bookingNotice, readBooking } from '../db/queries/bookings-queries.ts';
import { limitChanges, requireChangeable } from './booking-link.ts';
import { loadLink, type LinkRequest } from './link-context.ts';
import { linkView } from './link-view.ts';

/**
 * The visitor cancels their booked call through the private link (DELETE
 * /api/public/bookings/{token}): until the minimum notice before it, a few changes an hour
 * (booking-link.ts). Staff are told and the visitor emailed as for any cancellation by the lead.
 */
export async function cancelBooking(request: LinkRequest, token: string): Promise<PublicBooking & { emailed: boolean }> {
  const { db, config } = request;
  const { row, settings, hash, timeZone } = await loadLink(request, token);
  const current = requireChangeable(row, settings);
  await limitChanges(db, hash);
  const changed = await changeAppointment(
    db,
    current.id,
    { status: 'cancelled' },
    { changedBy: null, mail: appointmentMailOf(config), cancelledBy: 'lead', notice: bookingNotice('cancelled'), byVisitor: true },
  );
  const cancelled = await readBooking(db, hash, timeZone);
  return { ...(await linkView(db, config, cancelled!, { token, settings, timeZone })), emailed: changed?.lead_emailed ?? false };
}
