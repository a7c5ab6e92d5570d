import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase, rowsOf } from '../test/database.ts';
import { DEMO_EMAIL, seedDemo } from './demo-seed.ts';

const database = useTestDatabase();

const counts = async () =>
  (
    await rowsOf<Record<string, number>>(
      database.db,
      sql`select (select count(*)::int from leads) as leads, (select count(*)::int from appointments) as appointments,
                 (select count(*)::int from notifications) as notifications, (select count(*)::int from analytics_events) as events,
                 (select count(*)::int from users) as users`,
    )
  )[0]!;

describe('seedDemo', () => {
  it('fills every table, around today, and a second run duplicates nothing', async () => {
    const first = await seedDemo(database.db, { businessTimeZone: 'America/New_York' });
    expect(first).toContain(`Demo admin created: ${DEMO_EMAIL} / `);
    const after = await counts();
    expect(after.leads).toBeGreaterThanOrEqual(40);
    expect(after.appointments).toBeGreaterThanOrEqual(10);
    expect(after.notifications).toBe(after.leads);
    expect(after.events).toBeGreaterThan(1000);
    expect(after.users).toBe(1);
    const [history] = await rowsOf<{ contacted: number }>(database.db, sql`select count(*)::int as contacted from lead_status_changes where to_status = 'Contacted'`);
    expect(history!.contacted).toBeGreaterThan(10);

    const [range] = await rowsOf<{ past: number; upcoming: number; oldest_event_days: number }>(
      database.db,
      sql`select count(*) filter (where date < current_date)::int as past,
                 count(*) filter (where date >= current_date)::int as upcoming,
                 (select extract(day from now() - min(created_at))::int from analytics_events) as oldest_event_days
          from appointments`,
    );
    expect(range!.past).toBeGreaterThan(0);
    expect(range!.upcoming).toBeGreaterThan(0);
    expect(range!.oldest_event_days).toBeGreaterThanOrEqual(25);
    expect(range!.oldest_event_days).toBeLessThanOrEqual(30);

    const second = await seedDemo(database.db, { businessTimeZone: 'America/New_York' });
    expect(second).toContain('(already seeded)');
    expect(await counts()).toEqual(after);
  });
});
