import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { DEFAULT_MEMBER_AVAILABILITY, memberAvailabilitySchema, type MemberAvailability } from '#shared/schemas/availability';
import type { Db } from '../client.ts';
import { execute, queryRows } from '../sql.ts';

/** Whether `userId` is an account that can sign in (a host must be one). */
export async function isActiveMember(db: Db, userId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 as one from users where id = ${userId}::uuid and deactivated_at is null`,
    z.object({ one: z.number() }),
  );
  return rows.length > 0;
}

const storedRow = z.object({
  exists: z.boolean(),
  bookable: z.boolean().nullable(),
  hours: z.unknown(),
  days_off: z.unknown(),
  holidays_off: z.boolean().nullable(),
  meeting_link: z.string().nullable(),
});

/**
 * A team member's working hours, or undefined for no such account. Nothing saved yet: the
 * defaults (not bookable, the firm's hours, federal holidays off).
 */
export async function getMemberAvailability(db: Db, userId: string): Promise<MemberAvailability | undefined> {
  const [row] = await queryRows(
    db,
    sql`select true as exists, ua.bookable, ua.hours, ua.days_off, ua.holidays_off, ua.meeting_link
    from users u left join user_availability ua on ua.user_id = u.id where u.id = ${userId}::uuid`,
    storedRow,
  );
  if (!row) return undefined;
  if (row.bookable === null) return DEFAULT_MEMBER_AVAILABILITY;
  // Checked when saved; a row that no longer reads (written by hand) shows the defaults' parts.
  const hours = memberAvailabilitySchema.shape.hours.safeParse(row.hours);
  const daysOff = memberAvailabilitySchema.shape.days_off.safeParse(row.days_off);
  return {
    bookable: row.bookable,
    hours: hours.success ? hours.data : null,
    days_off: daysOff.success ? daysOff.data : [],
    holidays_off: row.holidays_off ?? true,
    meeting_link: row.meeting_link,
  };
}

/** Saves a member's working hours (checked by memberAvailabilitySchema); false for no such account. */
export async function saveMemberAvailability(db: Db, userId: string, value: MemberAvailability): Promise<boolean> {
  const days_off = [...value.days_off].sort();
  const n = await execute(
    db,
    sql`
    insert into user_availability (user_id, bookable, hours, days_off, holidays_off, meeting_link, updated_at)
    select u.id, ${value.bookable}, ${value.hours === null ? null : JSON.stringify(value.hours)}::jsonb, ${JSON.stringify(days_off)}::jsonb,
      ${value.holidays_off}, ${value.meeting_link ?? null}::text, crm_now()
    from users u where u.id = ${userId}::uuid
    on conflict (user_id) do update set bookable = excluded.bookable, hours = excluded.hours, days_off = excluded.days_off,
      holidays_off = excluded.holidays_off,
      meeting_link = case when ${value.meeting_link === undefined} then user_availability.meeting_link else excluded.meeting_link end,
      updated_at = crm_now()`,
  );
  return n > 0;
}
