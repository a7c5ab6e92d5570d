import * as z from 'zod';
import { leadEventDetails, leadEventTitle, meetingName as meeting } from '../../lib/booked-call-calendar.ts';
import { APPOINTMENT_MINUTES, appointmentUid, icsUtc, toInvitation } from '../../lib/icalendar.ts';
import {
  formatShort,
  formatWhen,
  oneLine,
  parse,
  render,
  visitorShort,
  visitorWhen,
  type ComposedEmail,
  type MailContext,
  type Template,
} from './render.ts';

const appointmentData = z.object({
  appointment_id: z.string(),
  change: z.enum(['scheduled', 'updated', 'cancelled']),
  audience: z.enum(['lead', 'staff']),
  type: z.string(),
  date: z.string(),
  time: z.string(),
  time_zone: z.string(),
  starts_at: z.string(),
  sequence: z.number().int(),
  notes: z.string().nullable(),
  lead_id: z.string(),
  lead_name: z.string(),
  lead_email: z.string(),
  lead_phone: z.string(),
  duration_minutes: z.number().int().optional(),
  location: z.string().nullable().optional(),
  /** The lead's private booking page (/booking/<token>), for a call they booked themselves. */
  manage_path: z.string().optional(),
  /** The time zone of the visitor who booked it online: the lead's copy shows their clock first, the firm's beside it. */
  visitor_time_zone: z.string().nullable().optional(),
});

function appointmentSubject(a: z.infer<typeof appointmentData>, ctx: MailContext): string {
  if (a.audience === 'staff') {
    return oneLine(
      `${{ scheduled: 'Scheduled', updated: 'Moved', cancelled: 'Cancelled' }[a.change]}: ${a.type} with ${a.lead_name}, ${formatShort(a.starts_at, a.time_zone)}`,
    );
  }
  const short = visitorShort(a.starts_at, a.time_zone, a.visitor_time_zone);
  return oneLine(
    `${{ scheduled: 'Confirmed', updated: 'Updated', cancelled: 'Cancelled' }[a.change]}: your ${meeting(a.type)} with ${ctx.site.name}, ${short}`,
  );
}

function appointment(data: unknown, ctx: MailContext): ComposedEmail {
  const a = parse(appointmentData, data);
  const when = formatWhen(a.starts_at, a.time_zone);
  const cancelled = a.change === 'cancelled';
  const invitation = toInvitation({
    method: cancelled ? 'CANCEL' : 'REQUEST',
    uid: appointmentUid(a.appointment_id, ctx.domain),
    sequence: a.sequence,
    startsUtc: icsUtc(a.starts_at),
    durationMinutes: a.duration_minutes ?? APPOINTMENT_MINUTES,
    summary: a.audience === 'lead' ? leadEventTitle(a.type, ctx.site) : `${a.type} with ${a.lead_name}`,
    description:
      a.audience === 'lead'
        ? leadEventDetails(a.type, ctx.site)
        : [`Lead: ${a.lead_name}`, `Email: ${a.lead_email}`, `Phone: ${a.lead_phone}`, a.notes].filter(Boolean).join('\n'),
    organizer: { name: ctx.site.name, address: ctx.from.address },
    location: cancelled ? null : (a.location ?? null),
    // The lead's own copy names no attendee: the name is what a visitor typed, and in a stranger's
    // calendar it would read as the firm's words (docs/security.md, "Mail that visitors cause").
    attendee: { name: a.audience === 'staff' ? a.lead_name : '', address: a.lead_email },
    productName: ctx.site.name,
  });
  const icalEvent = { method: cancelled ? ('CANCEL' as const) : ('REQUEST' as const), content: invitation };
  if (a.audience === 'staff') {
    const verb = { scheduled: 'Scheduled', updated: 'Moved', cancelled: 'Cancelled' }[a.change];
    return {
      subject: appointmentSubject(a, ctx),
      icalEvent,
      ...render(ctx, `${verb}: ${a.type} with ${a.lead_name}, ${when}.`, [
        {
          rows: [
            ['Lead', a.lead_name],
            ['Email', a.lead_email],
            ['Phone', a.lead_phone],
            ['When', when],
            ['Type', a.type],
            ['Location', a.location ?? null],
            ['Notes', a.notes],
          ],
        },
        { link: { label: 'Open the lead in the dashboard', href: `${ctx.publicUrl}/dashboard/leads/${encodeURIComponent(a.lead_id)}` } },
      ]),
    };
  }
  const first = a.lead_name.split(/\s+/)[0] ?? a.lead_name;
  const theirs = visitorWhen(a.starts_at, a.time_zone, a.visitor_time_zone);
  const lines = {
    scheduled: [
      `Your ${meeting(a.type)} with ${ctx.site.name} is booked for ${theirs}.`,
      'The attached invitation adds it to your calendar.',
    ],
    updated: [
      `Your ${meeting(a.type)} with ${ctx.site.name} has changed: it is now on ${theirs}.`,
      'The attached invitation updates it in your calendar.',
    ],
    cancelled: [
      `Your ${meeting(a.type)} with ${ctx.site.name} on ${theirs} is cancelled.`,
      'The attached notice removes it from your calendar.',
    ],
  }[a.change];
  return {
    subject: appointmentSubject(a, ctx),
    icalEvent,
    ...render(ctx, `Hello ${first},`, [
      { lines: a.location && !cancelled ? [...lines, `Where: ${a.location}`] : lines },
      a.manage_path && !cancelled
        ? { link: { label: 'Move or cancel your call', href: `${ctx.publicUrl}${a.manage_path}` } }
        : { lines: [`To change it, call ${ctx.site.phone} or reply to this email.`] },
    ]),
  };
}

export const appointmentTemplate: Template = {
  compose: appointment,
  subject: (data, ctx) => appointmentSubject(parse(appointmentData, data), ctx),
};
