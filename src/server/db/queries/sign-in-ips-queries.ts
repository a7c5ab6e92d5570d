import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { execute, queryRows } from '../sql.ts';

/** How long an IP an admin signed in from stays one of their usual ones. */
export const USUAL_IP_DAYS = 30;

/** Remembers that `userId` signed in successfully from `ip` just now. */
export async function rememberSignInIp(db: Db, userId: string, ip: string): Promise<void> {
  await execute(
    db,
    sql`
    insert into sign_in_ips (user_id, ip) values (${userId}, ${ip})
    on conflict (user_id, ip) do update set last_success_at = crm_now()`,
  );
}

/** Whether `userId` signed in successfully from `ip` within the last USUAL_IP_DAYS days. */
export async function isUsualSignInIp(db: Db, userId: string, ip: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`
    select 1 as usual from sign_in_ips
    where user_id = ${userId} and ip = ${ip} and last_success_at > crm_now() - make_interval(days => ${USUAL_IP_DAYS})`,
    z.object({ usual: z.number() }),
  );
  return rows.length > 0;
}

/** Forgets IPs not signed in from for USUAL_IP_DAYS days (the maintenance job). */
export async function deleteStaleSignInIps(db: Db): Promise<number> {
  return execute(db, sql`delete from sign_in_ips where last_success_at <= crm_now() - make_interval(days => ${USUAL_IP_DAYS})`);
}
