import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { BookingSettings } from '#shared/schemas/booking';
import type { Db } from '../client.ts';
import { queryRows } from '../sql.ts';
import { PREPARED } from '../prepared-statements.ts';
import { parseSettings } from './bookings-queries.ts';
import { hostsJson, storedHostSchema, toStoredHosts, type StoredHostRow } from './hosts-queries.ts';

/**
 * The sum of availability_versions: it grows with every committed change to what the open
 * times are computed from (scheduled appointments, the booking settings), in any process.
 * Equal sums read at two moments mean nothing of it changed in between.
 */
const versionSum = sql`(select coalesce(sum(version), 0)::float8 from availability_versions)`;

/** The current availability version: one index-free read of at most 16 tiny rows. */
export async function readAvailabilityVersion(db: Db): Promise<number> {
  const [row] = await queryRows(db, sql`select ${versionSum} as version`, z.object({ version: z.number() }), {
    prepared: PREPARED.availabilityVersion,
  });
  return row?.version ?? 0;
}

const inputsRow = z.object({
  version: z.number(),
  settings: z.unknown(),
  hosts: z.array(storedHostSchema),
});

/**
 * Everything the open times of business dates `from` to `to` are computed from, and the
 * version they belong to, read by one statement (one snapshot, so the version is exactly that
 * of what is read with it): the settings, and the people who take website calls with their
 * hours and their scheduled calls touching those dates (hostsJson).
 */
export async function readAvailabilityInputs(
  db: Db,
  timeZone: string,
  from: string,
  to: string,
): Promise<{ version: number; settings: BookingSettings; hosts: StoredHostRow[] }> {
  const [row] = await queryRows(
    db,
    sql`
    select ${versionSum} as version,
      (select settings from booking_settings where id = 1) as settings,
      ${hostsJson(timeZone, sql`${from}::date`, sql`${to}::date`, false)} as hosts`,
    inputsRow,
    { prepared: PREPARED.availabilityInputs },
  );
  return { version: row?.version ?? 0, settings: parseSettings(row?.settings), hosts: toStoredHosts(row?.hosts ?? []) };
}
