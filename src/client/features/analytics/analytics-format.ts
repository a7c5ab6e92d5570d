// Display rules of the Analytics dashboard (docs/product-rules.md, "Analytics"): times as minutes and seconds.

/** Seconds as minutes and zero-padded seconds: 125 → "2m 05s", 45 → "0m 45s". */
export function formatMinutesSeconds(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0;
  return `${Math.floor(total / 60)}m ${String(total % 60).padStart(2, '0')}s`;
}

/** An hour of day (0-23) as "12am", "1am" … "11pm". */
export function formatHour(hour: number): string {
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${h12}${hour < 12 ? 'am' : 'pm'}`;
}

/** A percent change with its sign: 12.5 → "+12.5%", -40 → "-40%", 0 → "0%". */
export function formatChange(percent: number): string {
  const text = Math.abs(percent).toLocaleString('en-US', { maximumFractionDigits: 1 });
  if (percent > 0) return `+${text}%`;
  return percent < 0 ? `-${text}%` : `${text}%`;
}

const zoned = new Map<string, Intl.DateTimeFormat>();
/** An instant on the business time zone's clock: "Nov 1, 2026, 12:00 AM". */
export function formatInZone(instant: number, timeZone: string): string {
  let f = zoned.get(timeZone);
  if (!f)
    zoned.set(
      timeZone,
      (f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      })),
    );
  return f.format(instant);
}

/** A time zone as people name it ("Central Time"), or its IANA name when Intl has no such name. */
export function zoneName(timeZone: string, at: number): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longGeneric' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  return name && !/^GMT[+-]/.test(name) ? name : timeZone;
}

/**
 * Where a period starts and ends on the business clock: "Nov 1, 2026, 12:00 AM – now,
 * Central Time", or its last minute when it is over. `start` and `end` (not included) are ISO
 * 8601 instants; a period of `hours` says so.
 */
export function periodBoundsText(
  { start, end, hours, time_zone }: { start: string; end: string; hours: number | null; time_zone: string },
  now: number,
): string {
  const [from, to] = [Date.parse(start), Date.parse(end)];
  const last = to > now ? 'now' : formatInZone(to - 60_000, time_zone);
  const text = `${formatInZone(from, time_zone)} – ${last}, ${zoneName(time_zone, from)}`;
  return hours === null ? text : `${text} (the current hour and the ${hours - 1} before it)`;
}
