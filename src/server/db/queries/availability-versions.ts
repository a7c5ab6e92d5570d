import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { BookingSettings } from '#shared/schemas/booking';
import type { Db } from '../client.ts';
import { queryRowsPrepared } from '../sql.ts';
import { parseSettings, startMs } from './bookings.ts';

/**
 * The sum of availability_versions: it grows with every committed change to what the open
 * times are computed from (scheduled appointments, the booking settings), in any process.
 * Equal sums read at two moments mean nothing of it changed in between.
 */
const versionSum = sql`(select coalesce(sum(version), 0)::float8 from availability_versions)`;

/** The current availability version: one index-free read of at most 16 tiny rows. */
export async function readAvailabilityVersion(db: Db): Promise<number> {
  const [row] = await queryRowsPrepared(
    db,
    'availability_version',
    sql`select ${versionSum} as version`,
    z.object({ version: z.number() }),
  );
  return row?.version ?? 0;
}

const inputsRow = z.object({
  version: z.number(),
  settings: z.unknown(),
  busy: z.array(z.object({ start: z.number(), duration_minutes: z.number().int() })),
});

/**
 * Everything the open times of business dates `from` to `to` are computed from, and the
 * version they belong to, read by one statement (one snapshot, so the version is exactly that
 * of the settings and busy times read with it): the settings, and the scheduled appointments
 * touching those dates (a day either side, for time zones and buffers) as instants.
 */
export async function readAvailabilityInputs(
  db: Db,
  timeZone: string,
  from: string,
  to: string,
): Promise<{ version: number; settings: BookingSettings; busy: { start: number; end: number }[] }> {
  const [row] = await queryRowsPrepared(
    db,
    'availability_inputs',
    sql`
    select ${versionSum} as version,
      (select settings from booking_settings where id = 1) as settings,
      coalesce((select json_agg(json_build_object('start', ${startMs(timeZone)}, 'duration_minutes', a.duration_minutes))
       from appointments a where a.status = 'scheduled' and a.date between ${from}::date - 1 and ${to}::date + 1), '[]'::json) as busy`,
    inputsRow,
  );
  return {
    version: row?.version ?? 0,
    settings: parseSettings(row?.settings),
    busy: (row?.busy ?? []).map((b) => ({ start: b.start, end: b.start + b.duration_minutes * 60_000 })),
  };
}
