import * as z from 'zod';
import { propertyTypesLabel } from '#shared/property-type-label';
import type { EmailKind } from '../db/queries/emails.ts';
import { LONG_DAY as LONG_WEEKDAY, bothClocks } from '#shared/visitor-clock';
import { leadEventDetails, leadEventTitle, meetingName as meeting } from '../lib/booked-call-calendar.ts';
import { APPOINTMENT_MINUTES, appointmentUid, icsUtc, toInvitation } from '../lib/icalendar.ts';
import type { Mailbox } from '../lib/mail-settings.ts';
import { weeklyReportDataSchema, type WeeklyFigures, type WeeklyReportData } from '../lib/weekly-report-data.ts';

/**
 * What each email says, from the snapshot queued with it: a subject, a plain-text and an
 * HTML part (no remote images, no tracking), the firm's contact block, and for appointment
 * changes an iCalendar invitation. Everything a person typed is escaped for HTML; header
 * values (the subject) have line breaks and control characters removed.
 */
export type MailContext = {
  site: { name: string; email: string; phone: string; address: string };
  /** For links: where staff reach the dashboard. */
  publicUrl: string;
  from: Mailbox;
  /** Names the appointments' UIDs. */
  domain: string;
  /** How the mail server is described in the test email. */
  transport: string;
};

export type ComposedEmail = { subject: string; text: string; html: string; icalEvent?: { method: 'REQUEST' | 'CANCEL'; content: string } };

const leadData = z.object({
  lead_id: z.string(),
  full_name: z.string(),
  email: z.string(),
  phone: z.string(),
  property_types: z.array(z.string()),
  message: z.string().nullable(),
  source: z.string().nullable(),
  utm_source: z.string().nullable(),
  utm_medium: z.string().nullable(),
  utm_campaign: z.string().nullable(),
  landing_page: z.string().nullable(),
});

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

const reminderData = z.object({
  appointment_id: z.string(),
  type: z.string(),
  time_zone: z.string(),
  starts_at: z.string(),
  lead_name: z.string(),
  visitor_time_zone: z.string().nullable().optional(),
});

/** A zone name from a snapshot that this runtime may not know (an old row, a newer tz database): the firm's clock alone then. */
const knownZone = (zone: string | null | undefined) => {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
};

/**
 * A booked time as the visitor reads it: "Tuesday, November 24, 2026 at 7:00 AM PST (10:00 AM
 * EST)", or the firm's clock alone when theirs is not known or reads the same
 * (docs/product-rules.md, "Booking").
 */
const visitorWhen = (iso: string, timeZone: string, visitorZone: string | null | undefined) =>
  bothClocks(iso, timeZone, knownZone(visitorZone), { day: { ...LONG_WEEKDAY, year: 'numeric' } });

/** "Tue, Nov 24, 10:00 AM" for the lead's subjects, "Tue, Nov 24, 7:00 AM PST (10:00 AM EST)" when their clock reads otherwise. */
const visitorShort = (iso: string, timeZone: string, visitorZone: string | null | undefined) =>
  bothClocks(iso, timeZone, knownZone(visitorZone), { day: { weekday: 'short', month: 'short', day: 'numeric' }, joiner: ', ', zoneWhenAlone: false });

/** A message's snapshot no longer matches what its template reads (a bug, or a row edited by hand). */
export class EmailDataError extends Error {}

// eslint-disable-next-line no-control-regex -- a header holds no control character
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** "Tuesday, November 24, 2026 at 10:00 AM EST", in the business time zone. */
export function formatWhen(iso: string, timeZone: string): string {
  const date = new Date(iso);
  const day = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' }).format(date);
  const time = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(date);
  return `${day} at ${time}`.replace(/\u202f/g, ' ');
}

/** One formatter per time zone: making one costs far more than formatting with it (a timeline formats dozens of subjects). */
const shortFormats = new Map<string, Intl.DateTimeFormat>();

/** "Tue, Nov 24, 10:00 AM", for subjects and staff. */
function formatShort(iso: string, timeZone: string): string {
  let format = shortFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
    shortFormats.set(timeZone, format);
  }
  return format.format(new Date(iso)).replace(/\u202f/g, ' ');
}

type Block = { heading?: string; lines: string[] } | { rows: [string, string | null][] } | { link: { label: string; href: string } };

/** The plain-text and HTML parts of one message, from the same blocks, with the firm's contact block below. */
function render(ctx: MailContext, greeting: string, blocks: Block[]): { text: string; html: string } {
  const text: string[] = [greeting, ''];
  const html: string[] = [`<p style="margin:0 0 16px">${escapeHtml(greeting)}</p>`];
  for (const block of blocks) {
    if ('lines' in block) {
      if (block.heading) {
        text.push(block.heading);
        html.push(`<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(block.heading)}</h2>`);
      }
      for (const line of block.lines) {
        text.push(line, '');
        html.push(`<p style="margin:0 0 12px;white-space:pre-wrap">${escapeHtml(line)}</p>`);
      }
    } else if ('rows' in block) {
      const rows = block.rows.filter((r): r is [string, string] => r[1] !== null && r[1] !== '');
      if (rows.length === 0) continue;
      for (const [label, value] of rows) text.push(`${label}: ${value}`);
      text.push('');
      html.push(
        `<table style="border-collapse:collapse;margin:0 0 16px">${rows
          .map(([label, value]) => `<tr><th style="text-align:left;padding:4px 12px 4px 0;vertical-align:top;color:#475569">${escapeHtml(label)}</th><td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(value)}</td></tr>`)
          .join('')}</table>`,
      );
    } else {
      text.push(`${block.link.label}: ${block.link.href}`, '');
      html.push(`<p style="margin:0 0 16px"><a href="${escapeHtml(block.link.href)}" style="color:#1d4ed8">${escapeHtml(block.link.label)}</a></p>`);
    }
  }
  const contact = [ctx.site.name, ctx.site.address, `${ctx.site.phone} · ${ctx.site.email}`];
  text.push('--', ...contact);
  html.push(
    `<hr style="border:none;border-top:1px solid #e2e8f0;margin:24px 0 12px"><p style="margin:0;color:#64748b;font-size:13px">${contact.map(escapeHtml).join('<br>')}</p>`,
  );
  return {
    text: `${text.join('\n')}\n`,
    html: `<!doctype html><html><body style="font-family:-apple-system,'Segoe UI',Roboto,Arial,sans-serif;font-size:15px;line-height:1.5;color:#0f172a;max-width:600px">${html.join('')}</body></html>`,
  };
}

const propertyType = (types: string[]) => propertyTypesLabel(types) || null;

// The subjects, on their own: the Email settings page and a lead's timeline show them without composing the whole message.
const newLeadSubject = (lead: z.infer<typeof leadData>) => oneLine(`New lead: ${lead.full_name}`);
const acknowledgementSubject = (ctx: MailContext) => oneLine(`We received your request: ${ctx.site.name}`);
function appointmentSubject(a: z.infer<typeof appointmentData>, ctx: MailContext): string {
  if (a.audience === 'staff') {
    return oneLine(`${{ scheduled: 'Scheduled', updated: 'Moved', cancelled: 'Cancelled' }[a.change]}: ${a.type} with ${a.lead_name}, ${formatShort(a.starts_at, a.time_zone)}`);
  }
  const short = visitorShort(a.starts_at, a.time_zone, a.visitor_time_zone);
  return oneLine(`${{ scheduled: 'Confirmed', updated: 'Updated', cancelled: 'Cancelled' }[a.change]}: your ${meeting(a.type)} with ${ctx.site.name}, ${short}`);
}
const reminderSubject = (a: z.infer<typeof reminderData>, ctx: MailContext) =>
  oneLine(`Reminder: your ${meeting(a.type)} with ${ctx.site.name}, ${visitorShort(a.starts_at, a.time_zone, a.visitor_time_zone)}`);
const testSubject = (ctx: MailContext) => oneLine(`Test email from ${ctx.site.name}`);
const inviteSubject = (ctx: MailContext) => oneLine(`You are invited to ${ctx.site.name}'s CRM`);

const resetSubject = (ctx: MailContext) => oneLine(`Choose a new password for ${ctx.site.name}'s CRM`);
const resetData = z.object({ link: z.string(), expires_minutes: z.number().int() });

/** An invitation: its link lives in the message's data only until the message is sent. */
const inviteData = z.object({ link: z.string(), role: z.enum(['owner', 'staff']), invited_by: z.string().nullable(), expires_hours: z.number().int() });

/**
 * A website booking held until the visitor confirms it: the link (a path under PUBLIC_URL)
 * lives in the data only until the message is sent. Nothing the visitor typed is in it: the
 * address may be someone else's, and the firm's words are all it carries.
 */
const bookingConfirmationData = z.object({
  link: z.string(),
  type: z.string(),
  time_zone: z.string(),
  starts_at: z.string(),
  expires_at: z.string(),
  visitor_time_zone: z.string().nullable().optional(),
});
const bookingConfirmationSubject = (ctx: MailContext) => oneLine(`Confirm your call with ${ctx.site.name}`);

function bookingConfirmation(data: unknown, ctx: MailContext): ComposedEmail {
  const b = parse(bookingConfirmationData, data);
  const until = bothClocks(b.expires_at, b.time_zone, knownZone(b.visitor_time_zone));
  return {
    subject: bookingConfirmationSubject(ctx),
    ...render(ctx, 'Hello,', [
      {
        lines: [
          `Someone (we hope you) asked to book a ${meeting(b.type)} with ${ctx.site.name} on ${visitorWhen(b.starts_at, b.time_zone, b.visitor_time_zone)}.`,
          `The time is yours only once you confirm it: until then others may still book it. The link works for 30 minutes, until ${until}.`,
        ],
      },
      { link: { label: 'Confirm my call', href: `${ctx.publicUrl}${b.link}` } },
      { lines: [`If you did not ask for this call, ignore this email: nothing is booked. To book by phone, call ${ctx.site.phone}.`] },
    ]),
  };
}

function newLead(data: unknown, ctx: MailContext): ComposedEmail {
  const lead = parse(leadData, data);
  const campaign = [lead.utm_campaign, lead.utm_source && `source ${lead.utm_source}`, lead.utm_medium && `medium ${lead.utm_medium}`].filter(Boolean).join(', ');
  return {
    subject: newLeadSubject(lead),
    ...render(ctx, `${lead.full_name} asked for a call.`, [
      {
        rows: [
          ['Name', lead.full_name],
          ['Email', lead.email],
          ['Phone', lead.phone],
          ['Property type', propertyType(lead.property_types)],
          ['Message', lead.message],
          ['Came from', lead.source],
          ['Campaign', campaign || null],
          ['Landing page', lead.landing_page],
        ],
      },
      { link: { label: 'Open the lead in the dashboard', href: `${ctx.publicUrl}/dashboard/leads/${encodeURIComponent(lead.lead_id)}` } },
    ]),
  };
}

function leadAcknowledgement(data: unknown, ctx: MailContext): ComposedEmail {
  const lead = parse(leadData, data);
  const first = lead.full_name.split(/\s+/)[0] ?? lead.full_name;
  return {
    subject: acknowledgementSubject(ctx),
    ...render(ctx, `Hello ${first},`, [
      {
        lines: [
          `Thank you for contacting ${ctx.site.name}. We received your request for a free call about your ${propertyType(lead.property_types)?.toLowerCase() ?? 'property'} deal.`,
          'What happens next: one of our analysts will call you at the number you gave us within one business day to talk through the deal. Your first deal analysis is free.',
          `If you would like to reach us sooner, call ${ctx.site.phone} or write to ${ctx.site.email}.`,
        ],
      },
    ]),
  };
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
        { rows: [['Lead', a.lead_name], ['Email', a.lead_email], ['Phone', a.lead_phone], ['When', when], ['Type', a.type], ['Location', a.location ?? null], ['Notes', a.notes]] },
        { link: { label: 'Open the lead in the dashboard', href: `${ctx.publicUrl}/dashboard/leads/${encodeURIComponent(a.lead_id)}` } },
      ]),
    };
  }
  const first = a.lead_name.split(/\s+/)[0] ?? a.lead_name;
  const theirs = visitorWhen(a.starts_at, a.time_zone, a.visitor_time_zone);
  const lines = {
    scheduled: [`Your ${meeting(a.type)} with ${ctx.site.name} is booked for ${theirs}.`, 'The attached invitation adds it to your calendar.'],
    updated: [`Your ${meeting(a.type)} with ${ctx.site.name} has changed: it is now on ${theirs}.`, 'The attached invitation updates it in your calendar.'],
    cancelled: [`Your ${meeting(a.type)} with ${ctx.site.name} on ${theirs} is cancelled.`, 'The attached notice removes it from your calendar.'],
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

function appointmentReminder(data: unknown, ctx: MailContext): ComposedEmail {
  const a = parse(reminderData, data);
  const first = a.lead_name.split(/\s+/)[0] ?? a.lead_name;
  const when = visitorWhen(a.starts_at, a.time_zone, a.visitor_time_zone);
  return {
    subject: reminderSubject(a, ctx),
    ...render(ctx, `Hello ${first},`, [
      { lines: [`A reminder of your ${meeting(a.type)} with ${ctx.site.name} on ${when}.`, `To change it, call ${ctx.site.phone} or reply to this email.`] },
    ]),
  };
}

function testEmail(_data: unknown, ctx: MailContext): ComposedEmail {
  return {
    subject: testSubject(ctx),
    ...render(ctx, 'Email works.', [{ lines: [`This message went through ${ctx.transport} from ${ctx.from.address}.`] }]),
  };
}

function invite(data: unknown, ctx: MailContext): ComposedEmail {
  const i = parse(inviteData, data);
  const who = i.invited_by ? `${i.invited_by} invited you` : 'You are invited';
  return {
    subject: inviteSubject(ctx),
    ...render(ctx, 'Hello,', [
      { lines: [`${who} to join ${ctx.site.name}'s CRM as ${i.role === 'owner' ? 'an owner' : 'a member of staff'}.`] },
      { link: { label: 'Accept the invitation and choose a password', href: i.link } },
      { lines: [`The link works once, for ${i.expires_hours} hours. If you did not expect this, you can ignore this email.`] },
    ]),
  };
}

function passwordReset(data: unknown, ctx: MailContext): ComposedEmail {
  const r = parse(resetData, data);
  return {
    subject: resetSubject(ctx),
    ...render(ctx, 'Hello,', [
      { lines: [`Someone (we hope you) asked to choose a new password for this email's account at ${ctx.site.name}'s CRM.`] },
      { link: { label: 'Choose a new password', href: r.link } },
      { lines: [`The link works once, for ${r.expires_minutes} minutes, and signs you out everywhere. If you did not ask, ignore this email: your password stays as it is.`] },
    ]),
  };
}

/** A day (YYYY-MM-DD, a calendar date in no zone) as people read it. */
const formatDay = (date: string, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', ...options }).format(new Date(`${date}T00:00:00Z`));
const LONG_DAY: Intl.DateTimeFormatOptions = { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' };

const formatCount = (n: number) => n.toLocaleString('en-US');
/** Cents as dollars: "$12,500", "$1,250.50". */
export const formatDollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: cents % 100 === 0 ? 0 : 2, maximumFractionDigits: 2 })}`;

/** "120 (up 20 from 100)", "100 (same as the week before)". */
function withChange(now: number, before: number, format: (n: number) => string): string {
  if (now === before) return `${format(now)} (same as the week before)`;
  return `${format(now)} (${now > before ? 'up' : 'down'} ${format(Math.abs(now - before))} from ${format(before)})`;
}

const FIGURES: [keyof WeeklyFigures, string, (n: number) => string][] = [
  ['visitors', 'Visitors', formatCount],
  ['leads', 'Leads', formatCount],
  ['bookings', 'Calls booked', formatCount],
  ['conversions', 'Clients won', formatCount],
  ['fees_cents', 'Fees', formatDollars],
];

/** How the figures are counted, in one line under them (the Analytics page counts the same way). */
export const WEEKLY_REPORT_DEFINITIONS =
  "How these are counted: visitors are people on their first visit that week; leads, calls booked, clients won and fees (the clients' estimated fees) are those of that week's leads, website leads by the week of their first visit and the others by the day they were entered.";

const weeklyReportSubject = (r: WeeklyReportData) =>
  oneLine(`Weekly report: ${formatDay(r.from, { month: 'short', day: 'numeric' })} – ${formatDay(r.to, { month: 'short', day: 'numeric', year: 'numeric' })}`);

function weeklyReport(data: unknown, ctx: MailContext): ComposedEmail {
  const r = parse(weeklyReportDataSchema, data);
  const f = r.follow_ups;
  const more = f.due - f.leads.length;
  const analytics = `${ctx.publicUrl}/dashboard/analytics?period=custom&from=${encodeURIComponent(r.from)}&to=${encodeURIComponent(r.to)}`;
  return {
    subject: weeklyReportSubject(r),
    ...render(ctx, `Last week at ${ctx.site.name}: ${formatDay(r.from, LONG_DAY)} to ${formatDay(r.to, LONG_DAY)}.`, [
      { rows: FIGURES.map(([key, label, format]) => [label, withChange(r.week[key], r.previous[key], format)]) },
      { heading: 'Top sources by clients', lines: r.top_sources.length === 0 ? ['No clients won that week.'] : [] },
      { rows: r.top_sources.map((s): [string, string] => [s.label, `${formatCount(s.clients)} ${s.clients === 1 ? 'client' : 'clients'}, ${formatDollars(s.fees_cents)} in fees`]) },
      {
        heading: 'Follow-ups due',
        lines: [
          f.due === 0
            ? `No follow-ups due on or before ${formatDay(f.as_of, LONG_DAY)}.`
            : `${formatCount(f.due)} ${f.due === 1 ? 'lead has a follow-up' : 'leads have follow-ups'} due on or before ${formatDay(f.as_of, LONG_DAY)}${more > 0 ? `; the oldest ${f.leads.length}:` : ':'}`,
        ],
      },
      { rows: f.leads.map((l): [string, string] => [l.full_name, formatDay(l.follow_up_on, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' })]) },
      { link: { label: 'Open the Analytics page for that week', href: analytics } },
      { lines: [WEEKLY_REPORT_DEFINITIONS] },
    ]),
  };
}

const COMPOSERS: Record<EmailKind, (data: unknown, ctx: MailContext) => ComposedEmail> = {
  'new-lead': newLead,
  'lead-acknowledgement': leadAcknowledgement,
  appointment,
  'appointment-reminder': appointmentReminder,
  test: testEmail,
  invite,
  'password-reset': passwordReset,
  'weekly-report': weeklyReport,
  'booking-confirmation': bookingConfirmation,
};

/** The message an outbox row stands for. Throws EmailDataError when its snapshot does not fit. */
export const composeEmail = (kind: EmailKind, data: unknown, ctx: MailContext): ComposedEmail => COMPOSERS[kind](data, ctx);

const SUBJECTS: Record<EmailKind, (data: unknown, ctx: MailContext) => string> = {
  'new-lead': (data) => newLeadSubject(parse(leadData, data)),
  'lead-acknowledgement': (data, ctx) => {
    parse(leadData, data); // a snapshot that does not fit gets the placeholder, as composing it would fail
    return acknowledgementSubject(ctx);
  },
  appointment: (data, ctx) => appointmentSubject(parse(appointmentData, data), ctx),
  'appointment-reminder': (data, ctx) => reminderSubject(parse(reminderData, data), ctx),
  test: (_data, ctx) => testSubject(ctx),
  invite: (_data, ctx) => inviteSubject(ctx),
  'password-reset': (_data, ctx) => resetSubject(ctx),
  'weekly-report': (data) => weeklyReportSubject(parse(weeklyReportDataSchema, data)),
  'booking-confirmation': (_data, ctx) => bookingConfirmationSubject(ctx),
};

/**
 * The subject alone, as composeEmail writes it (for the Email settings page and a lead's
 * timeline); a placeholder when the snapshot does not fit.
 */
export function emailSubject(kind: EmailKind, data: unknown, ctx: MailContext): string {
  try {
    return SUBJECTS[kind](data, ctx);
  } catch {
    return `(${kind})`;
  }
}

function parse<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  const result = schema.safeParse(data);
  if (!result.success) throw new EmailDataError(`the message's data does not fit its template: ${result.error.issues[0]?.path.join('.')}`);
  return result.data;
}
