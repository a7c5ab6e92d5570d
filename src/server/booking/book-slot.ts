import type { BookingSettings } from '#shared/schemas/booking';
import type { Db } from '../db/client.ts';
import type { AppointmentMail } from '../db/queries/appointments-queries.ts';
import { bookSlot, type Booked } from '../db/queries/bookings-queries.ts';
import type { StoredHostRow } from '../db/queries/hosts-queries.ts';
import { AppError } from '../lib/app-error.ts';
import { jitsiRoom } from '../lib/video-room.ts';
import { ALREADY_BOOKED } from './booking-link.ts';
import { teamOpenSlots, type Host } from './hosts.ts';
import { openSlotsOf, openSlotsOn, slotTaken, withCall } from './open-slot.ts';
import { isOverlapViolation } from '../db/database-faults.ts';

/*
 * A rule that stays in SQL, because only the database can settle a race between processes:
 * bookSlot (db/queries/bookings-queries.ts) books in one statement, where the link is locked (so a link
 * books one call, however many clicks), and a person's overlapping call, there before or booked
 * meanwhile in any process, refuses the time (the appointments' no-overlap constraint). Node's
 * own check (requireOpenSlot) only spares the database a doomed attempt. book-slot.api.test.ts
 * hands this times checked before another booking went in, and holds both rules.
 */

/**
 * `hosts`: the people free at that time, in the order to try them (assignmentOrder);
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
  /** Everyone who takes calls, as read with the request (for the 409's open times). */
  team: readonly Host[];
  hosts: readonly string[];
  network: string | null;
  visitorTimeZone: string | null;
};

/**
 * Books the time for the link (bookSlot) with the first of `hosts` still free, or answers why
 * not, calling `undo` first: 409 when every one of them was taken meanwhile or is being booked
 * at this very moment (with that day's open times, read afresh), or when the link booked at
 * this very moment through another request (a double click).
 */
export async function bookOrUndo(db: Db, mail: AppointmentMail, b: Booking, undo: () => Promise<void>): Promise<Booked> {
  const { settings, timeZone } = b;
  let overlapped = false;
  // The day as the last attempt read it, when it was refused for an overlap: read after every
  // attempt, so as fresh as reading it again.
  let day: StoredHostRow[] | undefined;
  for (const hostId of b.hosts) {
    let made: Awaited<ReturnType<typeof bookSlot>>;
    day = undefined;
    try {
      made = await bookSlot(
        db,
        {
          hash: b.hash,
          date: b.date,
          time: b.time,
          type: b.type,
          durationMinutes: settings.slot_minutes,
          bufferMinutes: settings.buffer_minutes,
          hostId,
          token: b.token,
          network: b.network,
          visitorTimeZone: b.visitorTimeZone,
          videoRoom: settings.jitsi_links && b.type === 'Zoom' ? jitsiRoom() : null,
        },
        mail,
      );
    } catch (error) {
      if (!isOverlapViolation(error)) throw error;
      overlapped = true;
      continue; // booked meanwhile, in some process: the next person
    }
    if (made === 'taken') continue; // being booked right now by someone else: the next person
    if (made && 'overlapped' in made) {
      overlapped = true;
      day = made.day;
      continue; // booked before this attempt began: the next person
    }
    if (!made) {
      await undo();
      throw new AppError('conflict', ALREADY_BOOKED);
    }
    return made;
  }
  await undo();
  const start = Date.parse(b.start);
  // Someone booked one of them meanwhile: that day's times read afresh (by the last attempt,
  // when it found the overlap itself). Otherwise each was being booked at this very moment: the
  // times already read, with this one taken for them.
  if (overlapped) {
    const open = day ? openSlotsOf(settings, timeZone, b.date, day) : await openSlotsOn(db, settings, timeZone, b.date);
    throw slotTaken(
      open.filter((s) => s !== start),
      timeZone,
    );
  }
  const taken = withCall(b.team, b.hosts, start, settings);
  throw slotTaken(teamOpenSlots(settings, timeZone, taken, b.date, b.date, Date.now()), timeZone);
}
