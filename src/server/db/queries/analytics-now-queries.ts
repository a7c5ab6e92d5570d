import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { NOW_MINUTES, type AnalyticsNow } from '#shared/schemas/analytics';
import type { Db } from '../client.ts';
import { queryRows } from '../sql.ts';

/**
 * The visitors of the last NOW_MINUTES minutes and the page each was last on: a range scan
 * of the newest raw events (analytics_events_created_at_idx), never the whole table.
 */
export async function getAnalyticsNow(db: Db): Promise<AnalyticsNow> {
  const rows = await queryRows(
    db,
    sql`
      with recent as (
        select distinct on (session_id) session_id, page_path
        from analytics_events
        where created_at > crm_now() - make_interval(mins => ${NOW_MINUTES})
        order by session_id, created_at desc, id desc
      )
      select page_path as path, count(*)::int as visitors, sum(count(*)) over ()::int as total
      from recent group by page_path order by visitors desc, path limit 10`,
    z.object({ path: z.string(), visitors: z.number().int(), total: z.number().int() }),
  );
  const [first] = rows;
  return { minutes: NOW_MINUTES, visitors: first?.total ?? 0, pages: rows.map(({ path, visitors }) => ({ path, visitors })) };
}
