/** Time already taken: an appointment, or an outside calendar's event, from `start` to `end` (instants, ms). */
export type Busy = { start: number; end: number };

const MINUTE = 60_000;

/**
 * Busy times widened by the buffer on both sides, merged, sorted: a slot is free when it
 * overlaps none of them.
 */
export function blockedRanges(busy: Busy[], bufferMinutes: number): Busy[] {
  const pad = bufferMinutes * MINUTE;
  const sorted = busy.map((b) => ({ start: b.start - pad, end: b.end + pad })).sort((a, b) => a.start - b.start);
  const merged: Busy[] = [];
  for (const b of sorted) {
    const last = merged.at(-1);
    if (last && b.start <= last.end) last.end = Math.max(last.end, b.end);
    else merged.push({ ...b });
  }
  return merged;
}
