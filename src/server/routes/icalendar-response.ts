import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { toICalendar, type CalendarAppointment } from '../lib/icalendar.ts';

/**
 * Appointments as an iCalendar body, for the one-appointment download and the subscription
 * feed alike: the calendar's name, the business time zone and the UID's host in one place.
 */
export function icalendarResponse(c: Context<AppEnv>, appointments: CalendarAppointment[], headers: Record<string, string>) {
  const { config } = c.var.deps;
  // The UIDs are the ones the invitation emails carry (mail/messages.ts appointmentUid).
  const body = toICalendar(appointments, { siteName: config.site.name, timeZone: config.businessTimeZone, uidDomain: config.mail.domain });
  c.header('Content-Type', 'text/calendar; charset=utf-8');
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.body(body, 200);
}
