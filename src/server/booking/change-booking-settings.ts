import type { BookingSettings, SaveBookingSettings } from '#shared/schemas/booking';
import type { Db } from '../db/client.ts';
import { isActiveMember } from '../db/queries/availability-queries.ts';
import { getBookingSettings, saveBookingSettings } from '../db/queries/bookings-queries.ts';
import { AppError } from '../lib/app-error.ts';

const EMAIL_OFF_SWITCH = 'Email is off on this server (no SMTP_URL), so no confirmation link could be sent. Turn email on first.';

const NOT_ON_TEAM = 'Choose people on the team';

/** Everyone chosen to take website calls is an active team member (400 otherwise). */
async function requireTeamMembers(db: Db, ids: readonly string[]) {
  for (const id of ids)
    if (!(await isActiveMember(db, id)))
      throw new AppError('validation_failed', 'That person is not an active team member.', { website_host_ids: NOT_ON_TEAM });
}

/**
 * An owner saves the booking settings (PUT /api/booking-settings, docs/product-rules.md
 * "Booking"): what the body leaves out of the email switch and the website's hosts stays as
 * saved. The switch cannot be turned on (or saved on) while email is off (`emailOn` false):
 * every booking would wait for a link nobody could send; a save that does not mention it keeps
 * it as it is. "Chosen people" named in the body must be active team members. 400 with the
 * field's message otherwise. Answers the settings before and after.
 */
export async function changeBookingSettings(
  db: Db,
  body: SaveBookingSettings,
  { emailOn }: { emailOn: boolean },
): Promise<{ before: BookingSettings; settings: BookingSettings }> {
  const before = await getBookingSettings(db);
  const require_email_confirmation = body.require_email_confirmation ?? before.require_email_confirmation;
  // Turning it on (or saving it on) with email off would hold every booking with no link to click.
  if (require_email_confirmation && !emailOn && body.require_email_confirmation !== undefined) {
    throw new AppError('validation_failed', EMAIL_OFF_SWITCH, { require_email_confirmation: EMAIL_OFF_SWITCH });
  }
  const hosts = {
    website_hosts: body.website_hosts ?? before.website_hosts,
    website_host_ids: body.website_host_ids ?? before.website_host_ids,
    visitors_choose_host: body.visitors_choose_host ?? before.visitors_choose_host,
    jitsi_links: body.jitsi_links ?? before.jitsi_links,
  };
  if (hosts.website_hosts === 'chosen' && body.website_host_ids !== undefined) await requireTeamMembers(db, body.website_host_ids);
  await saveBookingSettings(db, { ...body, require_email_confirmation, ...hosts });
  return { before, settings: await getBookingSettings(db) };
}
