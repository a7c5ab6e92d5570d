import type { BookingSettings, PublicBooking } from '#shared/schemas/booking';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Booked, BookingRow } from '../db/queries/bookings-queries.ts';
import { readPendingHold, type HoldRow } from '../db/queries/booking-holds-queries.ts';
import { websiteFrom } from '../db/queries/website-queries.ts';
import { mailSite, siteOf } from '../mail/mail-context.ts';
import { loadLink, type LinkRequest } from './link-context.ts';
import { publicView } from './public-view.ts';

/** The link being shown: its token, the booking settings and the business time zone as loaded with it (loadLink). */
export type ShownLink = { token: string; settings: BookingSettings; timeZone: string };

/** What the link's holder sees (publicView), with the site's words read from the database when a call shows. */
export const linkView = (db: Db, config: Config, row: BookingRow, link: ShownLink, hold?: HoldRow): Promise<PublicBooking> =>
  publicView(row, link.token, link.settings, link.timeZone, { hold, site: () => mailSite(db, config) });

/** What the link's holder sees now (GET /api/public/bookings/{token}), with the time held for their confirmation, if any. */
export async function showLink(request: LinkRequest, token: string): Promise<PublicBooking> {
  const { row, settings, hash, timeZone } = await loadLink(request, token);
  const hold = await readPendingHold(request.db, hash, timeZone);
  return linkView(request.db, request.config, row, { token, settings, timeZone }, hold);
}

/** The link's row with the call just booked (bookSlot's `made`) in it: scheduled, first sequence, at `start` (epoch ms). */
export function bookedRow(row: BookingRow, made: Booked, call: { start: number; type: string }, settings: BookingSettings): BookingRow {
  return {
    ...row,
    expired: false,
    appointment: {
      id: made.id,
      start: call.start,
      duration_minutes: settings.slot_minutes,
      type: call.type,
      status: 'scheduled',
      sequence: 0,
      host_id: made.host_id,
      location: made.location,
    },
  };
}

/**
 * linkView of a call just booked, with the website's words bookSlot's statement read along with
 * it (no second read), and whether the visitor was emailed about it.
 */
export async function bookedView(
  site: Config['site'],
  row: BookingRow,
  link: ShownLink,
  made: Booked,
  call: { start: number; type: string },
): Promise<PublicBooking & { emailed: boolean }> {
  const view = await publicView(bookedRow(row, made, call, link.settings), link.token, link.settings, link.timeZone, {
    site: async () => siteOf(websiteFrom(made.website ?? undefined, site).content),
  });
  return { ...view, emailed: made.emailed };
}
