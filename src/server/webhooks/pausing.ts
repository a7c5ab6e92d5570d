import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { notifyEndpointPaused, recordFailed, type AttemptOutcome } from '../db/queries/webhook-deliveries-queries.ts';
import { GIVE_UP_SECONDS } from './retry.ts';

/**
 * When an endpoint is paused (docs/webhooks.md): once every delivery to it has failed for 3
 * days, or at once when it answers 410 Gone; its creator (or, without one, the owners) is told
 * once. The rule stays in SQL, where concurrent failures settle it (recordFailed in
 * db/queries/webhook-deliveries-queries.ts): its failing_since is kept from the first failure since its
 * last success, and the row's own update, under its lock, pauses it only if it was not paused
 * already, so however many processes fail at once, one pauses it and tells.
 */

/** How long an endpoint may fail every delivery before it is paused. */
export const PAUSE_AFTER_SECONDS = GIVE_UP_SECONDS;

/** What recordFailed is told for an attempt answered `httpStatus` (null: no answer). */
export function pauseRule(httpStatus: number | null): { afterSeconds: number; now: boolean; reason: string } {
  const gone = httpStatus === 410;
  return {
    afterSeconds: PAUSE_AFTER_SECONDS,
    now: gone,
    reason: gone ? 'The endpoint answered 410 Gone' : 'Every delivery failed for 3 days',
  };
}

/** The notification of a pause. */
export const pausedNotice = (host: string, gone: boolean) =>
  gone ? `Webhook to ${host} paused: it answered 410 Gone` : `Webhook to ${host} paused: it failed for 3 days`;

/**
 * Records a failed attempt (tried again at `retryAt`, or failed for good when null), pausing
 * its endpoint by the rule above; a pause is notified and logged.
 */
export async function recordFailure(db: Db, outcome: AttemptOutcome, retryAt: Date | null, logger: Logger): Promise<void> {
  const rule = pauseRule(outcome.httpStatus);
  const { paused } = await recordFailed(db, outcome, retryAt, rule);
  if (!paused) return;
  const host = new URL(paused.url).host;
  await notifyEndpointPaused(db, paused.createdBy, pausedNotice(host, rule.now));
  logger.warn({ event: 'webhook_paused', endpointId: outcome.endpointId, host }, 'a webhook endpoint was paused');
}
