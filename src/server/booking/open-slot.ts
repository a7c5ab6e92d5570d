import type { BookingSettings } from '#shared/schemas/booking';
import { clockText, isoInZone, zonedParts } from '#shared/zoned-time';
import type { Db } from '../db/client.ts';
import { readHosts, type StoredHostRow } from '../db/queries/hosts-queries.ts';
import { AppError } from '../lib/app-error.ts';
import { blockedRanges } from '../lib/busy-times.ts';
import { hostsFreeAt, teamOpenSlots, toHost, type Host } from './hosts.ts';

export const SLOT_TAKEN = 'Sorry, that time was just taken. Please pick another time.';

/** A scheduled call being moved: its start (epoch ms), length and host. */
export type MovingCall = { start: number; duration_minutes: number; host_id: string | null };

/** The hosts, the call being moved left out of its host's calls (it does not block its own new time). */
export function hostsOf(settings: BookingSettings, stored: readonly StoredHostRow[], ignore?: MovingCall): Host[] {
  return stored.map((h) => {
    if (!ignore || h.id !== ignore.host_id) return toHost(h, settings);
    const end = ignore.start + ignore.duration_minutes * 60_000;
    const i = h.busy.findIndex((b) => b.start === ignore.start && b.end === end);
    return toHost(i < 0 ? h : { ...h, busy: h.busy.filter((_, j) => j !== i) }, settings);
  });
}

/** `team` with a call from `start` (one slot, with the buffer) on each of `hostIds`' calendars. */
export function withCall(team: readonly Host[], hostIds: readonly string[], start: number, settings: BookingSettings): Host[] {
  const pad = settings.buffer_minutes * 60_000;
  const call = { start: start - pad, end: start + settings.slot_minutes * 60_000 + pad };
  return team.map((h) => (hostIds.includes(h.id) ? { ...h, blocked: blockedRanges([...h.blocked, call], 0) } : h));
}

/** The 409 for a time someone else has: it carries that day's open times, so the picker can offer them at once. */
export const slotTaken = (slots: number[], timeZone: string) =>
  new AppError('conflict', SLOT_TAKEN, undefined, undefined, { slots: slots.map((s) => isoInZone(s, timeZone)) });

/**
 * Checks that `start` is an open time of its day for someone in `hosts`, or answers 409 with
 * that day's open times; returns its business date and clock time, and who is free then.
 */
export function requireOpenSlot(settings: BookingSettings, timeZone: string, start: string, hosts: readonly Host[], now = Date.now()) {
  const at = Date.parse(start);
  const { date, minutes } = zonedParts(at, timeZone);
  const free = hostsFreeAt(settings, timeZone, hosts, at, now);
  if (free.length === 0) throw slotTaken(teamOpenSlots(settings, timeZone, hosts, date, date, now), timeZone);
  return { date, time: clockText(minutes), free };
}

/** The open start times of one business date now, read afresh, leaving out `ignore` (a call being moved). */
export async function openSlotsOn(db: Db, settings: BookingSettings, timeZone: string, date: string, ignore?: MovingCall) {
  return openSlotsOf(settings, timeZone, date, await readHosts(db, timeZone, date, date), ignore);
}

/** openSlotsOn from that date's people and calls as already read (readHosts). */
export function openSlotsOf(
  settings: BookingSettings,
  timeZone: string,
  date: string,
  stored: readonly StoredHostRow[],
  ignore?: MovingCall,
) {
  return teamOpenSlots(settings, timeZone, hostsOf(settings, stored, ignore), date, date, Date.now());
}

/**
 * The order to try the free people in: the lead's owner first, then the one a visitor booked
 * least recently (never first), then the one with the fewest calls to come; `keep` (a call's
 * current host, when it moves) before all.
 */
export function assignmentOrder(
  free: readonly Host[],
  stored: readonly StoredHostRow[],
  ownerId: string | null,
  keep?: string | null,
): string[] {
  const stats = new Map(stored.map((h) => [h.id, h]));
  const rank = (id: string) => (id === keep ? 0 : id === ownerId ? 1 : 2);
  return free
    .map((h) => h.id)
    .sort((a, b) => {
      const r = rank(a) - rank(b);
      if (r !== 0) return r;
      const la = stats.get(a)?.last_booked_at ?? '';
      const lb = stats.get(b)?.last_booked_at ?? '';
      if (la !== lb) return la < lb ? -1 : 1;
      const ua = stats.get(a)?.upcoming ?? 0;
      const ub = stats.get(b)?.upcoming ?? 0;
      return ua !== ub ? ua - ub : a < b ? -1 : a > b ? 1 : 0;
    });
}
