import type { PublicBooking, RescheduleBookingRequest } from '#shared/schemas/booking';
import { appointmentMailOf, changeAppointment } from '../db/queries/appointments-queries.ts';
import { bookingNotice, managePathExtra, readBooking } from '../db/queries/bookings-queries.ts';
import { isOverlapViolation } from '../db/database-faults.ts';
import { limitChanges, requireBookableType, requireChangeable, visitorZoneOf } from './booking-link.ts';
import { loadLink, type LinkRequest } from './link-context.ts';
import { linkView } from './link-view.ts';
import { assignmentOrder, hostsOf, openSlotsOn, requireOpenSlot, slotTaken } from './open-slot.ts';

/**
 * The visitor moves their booked call through the private link (PATCH /api/public/bookings/{token}):
 * until the minimum notice before it, a few times an hour (booking-link.ts), to a time open for
 * someone (the call itself left out of its host's calls). Its host keeps it when free then;
 * otherwise whoever a new booking would get. The race for the new time is settled in SQL: the
 * appointments' no-overlap constraint refuses a time booked meanwhile in any process, answered
 * as a 409 with that day's open times read afresh.
 */
export async function rescheduleBooking(
  request: LinkRequest,
  token: string,
  body: RescheduleBookingRequest,
): Promise<PublicBooking & { emailed: boolean }> {
  const { db, config } = request;
  const { row, settings, hash, timeZone, hosts: stored } = await loadLink(request, token, body.start);
  const current = requireChangeable(row, settings);
  requireBookableType(settings, body.type);
  await limitChanges(db, hash);
  const { free, ...at } = requireOpenSlot(settings, timeZone, body.start, hostsOf(settings, stored, current));
  const [host] = assignmentOrder(free, stored, row.owner_id, current.host_id);
  let changed;
  try {
    changed = await changeAppointment(
      db,
      current.id,
      { date: at.date, time: at.time, type: body.type, host_id: host },
      {
        changedBy: null,
        mail: appointmentMailOf(config),
        notice: bookingNotice('moved'),
        leadExtra: managePathExtra(token),
        byVisitor: true,
        visitorTimeZone: visitorZoneOf(body.time_zone) ?? undefined,
      },
    );
  } catch (error) {
    if (!isOverlapViolation(error)) throw error;
    throw slotTaken(await openSlotsOn(db, settings, timeZone, at.date, current), timeZone);
  }
  const moved = await readBooking(db, hash, timeZone);
  return { ...(await linkView(db, config, moved!, { token, settings, timeZone })), emailed: changed?.lead_emailed ?? false };
}
