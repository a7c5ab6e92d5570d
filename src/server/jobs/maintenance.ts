import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { deleteExpiredRateLimits } from '../db/queries/rate-limits.ts';
import { sendDueReminders } from '../db/queries/reminders.ts';
import { deleteExpiredSessions } from '../db/queries/sessions.ts';

type Job = { name: string; everyMs: number; run: () => Promise<unknown> };

/** Periodic work: appointment reminders and housekeeping. Returns a stop function. */
export function startJobs(database: Database, config: Config, logger: Logger): () => void {
  const jobs: Job[] = [
    {
      name: 'appointment reminders',
      everyMs: 30_000,
      run: async () => {
        const sent = await sendDueReminders(database.db, config.businessTimeZone, config.reminderMinutesBefore);
        if (sent > 0) logger.info({ event: 'reminders_sent', notifications: sent }, 'sent appointment reminders');
      },
    },
    { name: 'rate limit cleanup', everyMs: 10 * 60_000, run: () => deleteExpiredRateLimits(database.db) },
    { name: 'session cleanup', everyMs: 60 * 60_000, run: () => deleteExpiredSessions(database.db) },
  ];
  const timers = jobs.map((job) => {
    const tick = () => job.run().catch((err: unknown) => logger.warn({ err, job: job.name }, 'job failed'));
    void tick();
    const timer = setInterval(tick, job.everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach(clearInterval);
}
