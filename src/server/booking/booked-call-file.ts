import { isoInZone } from '#shared/zoned-time';
import { bookedCallIcs } from '../lib/booked-call-calendar.ts';
import { appointmentUid } from '../lib/icalendar.ts';
import { AppError } from '../lib/app-error.ts';
import { mailSite } from '../mail/mail-context.ts';
import { loadLink, type LinkRequest } from './link-context.ts';

/**
 * The call booked through a private link as an .ics file for the visitor's calendar
 * (METHOD:PUBLISH), with the UID and SEQUENCE of the invitation emails, so adding it updates the
 * event an invitation made; a cancelled call comes as STATUS:CANCELLED. 404 when the link booked
 * no call.
 */
export async function bookedCallFile(request: LinkRequest, token: string): Promise<string> {
  const { db, config } = request;
  const { row, timeZone } = await loadLink(request, token);
  const a = row.appointment;
  if (!a) throw new AppError('not_found', 'There is no call booked through this link.');
  const site = await mailSite(db, config);
  return bookedCallIcs({
    uid: appointmentUid(a.id, config.mail.domain),
    sequence: a.sequence,
    start: isoInZone(a.start, timeZone),
    end: isoInZone(a.start + a.duration_minutes * 60_000, timeZone),
    type: a.type,
    cancelled: a.status === 'cancelled',
    site,
    organizer: { name: site.name, address: config.mail.from.address },
    location: a.location ?? null,
  });
}
