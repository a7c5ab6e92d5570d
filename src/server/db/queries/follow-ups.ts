import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { execute, queryRows } from '../sql.ts';

/**
 * The next step's day: on a lead's follow-up date (in the business time zone), its owner, or
 * every admin when nobody owns it, gets one `follow_up` notification, "Follow up with Jane
 * Doe: send the zoning report". docs/product-rules.md, "Next step".
 */

/** Leads whose follow-up day has come and who were not told of that date yet. */
const due = (timeZone: string) => sql`l.follow_up_on <= (now() at time zone ${timeZone})::date
  and l.follow_up_notified_on is distinct from l.follow_up_on`;

/**
 * Notifies every due lead's recipients and marks the date notified, in one statement: the
 * UPDATE re-checks `follow_up_notified_on` under the row lock, so two processes running this
 * at once notify once, and a process killed mid-way commits both or neither. A date changed
 * later is notified again. Returns how many notifications were created.
 *
 * An UPDATE announces a change on `crm_changes` (the leads trigger is per statement, even
 * for no row), so it runs only when something is due: otherwise every open lead list would
 * refetch every minute.
 */
export async function notifyDueFollowUps(db: Db, timeZone: string): Promise<number> {
  const [any] = await queryRows(
    db,
    sql`select exists (select 1 from leads l where ${due(timeZone)}) as due`,
    z.object({ due: z.boolean() }),
  );
  if (!any?.due) return 0;
  return execute(
    db,
    sql`
    with notified as (
      update leads l set follow_up_notified_on = l.follow_up_on
      where ${due(timeZone)}
      returning l.id, l.full_name, l.owner_id, l.follow_up_note
    )
    insert into notifications (user_id, type, message, lead_id)
    select u.id, 'follow_up', 'Follow up with ' || n.full_name || coalesce(': ' || n.follow_up_note, ''), n.id
    from notified n join users u on n.owner_id is null or u.id = n.owner_id`,
  );
}
