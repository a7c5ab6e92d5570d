import { sql } from 'drizzle-orm';
import { notificationSchema, type Notification } from '#shared/schemas/notification';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, queryRows } from '../sql.ts';

// Every function takes the signed-in user's id: no query touches another user's rows.
const LIST_LIMIT = 100;

export async function listNotifications(db: Db, userId: string): Promise<Notification[]> {
  return queryRows(
    db,
    sql`
    select id, type, message, read, lead_id, ${isoTimestamp(sql`created_at`)} as created_at
    from notifications where user_id = ${userId}
    order by created_at desc, id desc
    limit ${LIST_LIMIT}`,
    notificationSchema,
  );
}

/** False when the notification does not exist or belongs to someone else. */
export async function markNotificationRead(db: Db, userId: string, id: string): Promise<boolean> {
  return (await execute(db, sql`update notifications set read = true where id = ${id} and user_id = ${userId}`)) > 0;
}

export async function markAllNotificationsRead(db: Db, userId: string): Promise<number> {
  return execute(db, sql`update notifications set read = true where user_id = ${userId} and not read`);
}

export async function clearNotifications(db: Db, userId: string): Promise<number> {
  return execute(db, sql`delete from notifications where user_id = ${userId}`);
}
