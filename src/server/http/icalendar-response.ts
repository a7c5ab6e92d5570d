import type { Context } from 'hono';
import { getWebsiteContent } from '../db/queries/website-queries.ts';
import type { AppEnv } from './context.ts';
import { toICalendar, type CalendarAppointment } from '../lib/icalendar.ts';

/**
 * Appointments as an iCalendar body, for the one-appointment download and the subscription
 * feed alike: the calendar's name, the business time zone and the UID's host in one place.
 */
export async function icalendarResponse(c: Context<AppEnv>, appointments: CalendarAppointment[], headers: Record<string, string>) {
  const { config } = c.get('deps');
  // The brand the website shows now; the UIDs are the ones the invitation emails carry
  // (mail/messages.ts appointmentUid), named by MAIL_FROM's domain, which a new brand leaves alone.
  const siteName = (await getWebsiteContent(c.get('db'), config.site)).content.site_name;
  const body = toICalendar(appointments, { siteName, timeZone: config.businessTimeZone, uidDomain: config.mail.domain });
  c.header('Content-Type', 'text/calendar; charset=utf-8');
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.body(body, 200);
}
