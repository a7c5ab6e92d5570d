import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { execute } from '../sql.ts';
import { useTestDatabase, rowsOf } from '../../test/database.ts';
import { deleteExpiredRateLimits, hitRateLimit } from './rate-limits-queries.ts';

const database = useTestDatabase();
beforeEach(async () => {
  await execute(database.db, sql`truncate rate_limits`);
});

const keys = async () => (await rowsOf<{ key: string }>(database.db, sql`select key from rate_limits order by key`)).map((r) => r.key);

describe('deleteExpiredRateLimits', () => {
  it('deletes every window that has ended, by its own length, and keeps the live ones', async () => {
    await hitRateLimit(database.db, 'login:ip:ended', 20, 15 * 60);
    await hitRateLimit(database.db, 'login:ip:live', 20, 15 * 60);
    await hitRateLimit(database.db, 'lead:live', 10, 3600);
    // Two windows that started 16 minutes ago: the 15-minute one has ended, the hour has not.
    await execute(
      database.db,
      sql`
      update rate_limits set window_start = now() - interval '16 minutes', expires_at = now() - interval '16 minutes' + (expires_at - window_start)
      where key in ('login:ip:ended', 'lead:live')`,
    );
    expect(await deleteExpiredRateLimits(database.db)).toBe(1);
    expect(await keys()).toEqual(['lead:live', 'login:ip:live']);
  });
});
