import type { BookingSettings } from '#shared/schemas/booking';
import type { Db } from '../db/client.ts';
import type { AppointmentMail } from '../db/queries/appointments.ts';
import { bookSlot, type Booked } from '../db/queries/bookings.ts';
import { AppError } from '../http/errors.ts';
import { openSlots, type Busy } from './availability.ts';
import { ALREADY_BOOKED } from './booking-link.ts';
import { openSlotsOn, slotTaken } from './open-slot.ts';
import { isOverlapViolation } from '../db/database-faults.ts';

/**
 * `network`: the client network the booking came from (kept for staff's bulk cancel);
 * `visitorTimeZone`: the visitor's own (checked), kept for the mails about the call.
 */
export type Booking = {
  hash: string;
  token: string;
  date: string;
  time: string;
  type: string;
  start: string;
  settings: BookingSettings;
  timeZone: string;
  busy: Busy[];
  network: string | null;
  visitorTimeZone: string | null;
};

/**
 * Books the time for the link (bookSlot) or answers why not, calling `undo` first: 409 when
 * someone else took or is taking it (with that day's open times), or when the link booked at
 * this very moment through another request (a double click).
 */
export async function bookOrUndo(db: Db, mail: AppointmentMail, b: Booking, undo: () => Promise<void>): Promise<Booked> {
  const { settings, timeZone } = b;
  let id: Booked | 'taken' | undefined;
  try {
    id = await bookSlot(
      db,
      {
        hash: b.hash,
        date: b.date,
        time: b.time,
        type: b.type,
        durationMinutes: settings.slot_minutes,
        bufferMinutes: settings.buffer_minutes,
        token: b.token,
        network: b.network,
        visitorTimeZone: b.visitorTimeZone,
      },
      mail,
    );
  } catch (error) {
    if (!isOverlapViolation(error)) throw error;
    await undo();
    throw slotTaken(await openSlotsOn(db, settings, timeZone, b.date), timeZone);
  }
  if (id === 'taken' || !id) await undo();
  // Someone else is booking this very time right now: theirs, unless it fails (then it is open
  // again). The day's other times come from the busy times already read, with this one busy.
  if (id === 'taken') {
    const start = Date.parse(b.start);
    const taken = [...b.busy, { start, end: start + settings.slot_minutes * 60_000 }];
    throw slotTaken(openSlots({ settings, timeZone, from: b.date, to: b.date, now: Date.now(), busy: taken }), timeZone);
  }
  if (!id) throw new AppError('conflict', ALREADY_BOOKED);
  return id;
}
