import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { execute } from '../sql.ts';

/**
 * A task's due time: when an open task falls due, its assignee, or every admin when nobody is
 * assigned, gets one `follow_up` notification, "Follow up with Jane Doe: send the zoning report".
 * A lead's next step is its earliest open task (docs/product-rules.md, "Next step").
 */

/**
 * Notifies every due task's recipients and marks the task told, in one statement: the UPDATE
 * re-checks `notified_at` under the row lock, so two processes running this at once notify
 * once, and a process killed mid-way commits both or neither. A due time changed later is told
 * again (the task writes clear `notified_at`). Returns how many notifications were created.
 */
export async function notifyDueFollowUps(db: Db): Promise<number> {
  return execute(
    db,
    sql`
    with told as (
      update lead_tasks t set notified_at = crm_now()
      where t.done_at is null and t.notified_at is null and t.due_at <= crm_now()
      returning t.id, t.lead_id, t.assignee_id, t.title
    )
    insert into notifications (user_id, type, message, lead_id)
    select u.id, 'follow_up', 'Follow up with ' || l.full_name || coalesce(': ' || t.title, ''), l.id
    from told t join leads l on l.id = t.lead_id
    join users u on t.assignee_id is null or u.id = t.assignee_id`,
  );
}
