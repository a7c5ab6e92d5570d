import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { deleteExpiredRateLimits } from '../db/queries/rate-limits.ts';

/** Periodic housekeeping; returns a stop function. */
export function startMaintenance(database: Database, logger: Logger, everyMs = 10 * 60_000): () => void {
  const timer = setInterval(() => {
    deleteExpiredRateLimits(database.db).catch((err: unknown) => logger.warn({ err }, 'rate limit cleanup failed'));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
