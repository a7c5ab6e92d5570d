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
