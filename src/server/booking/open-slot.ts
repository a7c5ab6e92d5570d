import type { BookingSettings } from '#shared/schemas/booking';
import { clockText, isoInZone, zonedParts } from '#shared/zoned-time';
import type { Db } from '../db/client.ts';
import { busyTimes } from '../db/queries/bookings.ts';
import { AppError } from '../http/errors.ts';
import { openSlots, type Busy } from './availability.ts';

export const SLOT_TAKEN = 'Sorry, that time was just taken. Please pick another time.';

/** A scheduled call being moved: its start (epoch ms) and length. */
export type MovingCall = { start: number; duration_minutes: number };

/** Busy times without the call being moved (it does not block its own new time). */
export function withoutCall(busy: Busy[], ignore?: MovingCall): Busy[] {
  if (!ignore) return busy;
  const end = ignore.start + ignore.duration_minutes * 60_000;
  const i = busy.findIndex((b) => b.start === ignore.start && b.end === end);
  return i < 0 ? busy : busy.filter((_, j) => j !== i);
}

/** The 409 for a time someone else has: it carries that day's open times, so the picker can offer them at once. */
export const slotTaken = (slots: number[], timeZone: string) =>
  new AppError('conflict', SLOT_TAKEN, undefined, undefined, { slots: slots.map((s) => isoInZone(s, timeZone)) });

/**
 * Checks that `start` is one of the open times of its day, given that day's busy times (but
 * `ignore`, the call being moved), or answers 409 with that day's open times; returns its
 * business date and clock time.
 */
export function requireOpenSlot(
  settings: BookingSettings,
  timeZone: string,
  start: string,
  busy: Busy[],
  ignore?: MovingCall,
  now = Date.now(),
) {
  const at = Date.parse(start);
  const { date, minutes } = zonedParts(at, timeZone);
  const slots = openSlots({ settings, timeZone, from: date, to: date, now, busy: withoutCall(busy, ignore) });
  if (!slots.includes(at)) throw slotTaken(slots, timeZone);
  return { date, time: clockText(minutes) };
}

/** The open start times of one business date now, read afresh, leaving out `ignore` (a call being moved). */
export async function openSlotsOn(db: Db, settings: BookingSettings, timeZone: string, date: string, ignore?: MovingCall) {
  const busy = withoutCall(await busyTimes(db, timeZone, date, date), ignore);
  return openSlots({ settings, timeZone, from: date, to: date, now: Date.now(), busy });
}
