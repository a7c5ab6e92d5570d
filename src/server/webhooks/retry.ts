/**
 * When a failed delivery is tried again (docs/webhooks.md): with exponential backoff and jitter,
 * for 3 days from the delivery's creation; then it is failed. A Send test is never tried again.
 */

/** A delivery is tried for this long from its creation, then failed. */
export const GIVE_UP_SECONDS = 3 * 86_400;

/** Backoff after the nth failed attempt: 30 s doubling to 6 hours, with full jitter on its upper half. */
export function retryDelaySeconds(attempt: number, random = Math.random): number {
  const base = Math.min(30 * 2 ** Math.max(0, attempt - 1), 6 * 3600);
  return Math.round(base * (0.5 + random() * 0.5));
}

/**
 * When `delivery`, which just failed at `now`, is tried next (its attempts so far, this one not
 * yet counted); null when never: past GIVE_UP_SECONDS from its creation, or `retry` false.
 */
export function nextAttemptAt(
  delivery: { created_at: string; attempts: number },
  now: Date,
  retry: boolean,
  random = Math.random,
): Date | null {
  const age = (now.getTime() - Date.parse(delivery.created_at)) / 1000;
  if (!retry || age >= GIVE_UP_SECONDS) return null;
  return new Date(now.getTime() + retryDelaySeconds(delivery.attempts + 1, random) * 1000);
}
