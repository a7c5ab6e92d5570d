import type * as z from 'zod';
import { propertyTypesLabel } from '#shared/property-type-label';
import { LONG_DAY as LONG_WEEKDAY, bothClocks } from '#shared/visitor-clock';
import type { Mailbox } from '../../lib/mail-settings.ts';

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

export type ComposedEmail = {
  subject: string;
  text: string;
  html: string;
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; content: string };
  /** The sender's name instead of MAIL_FROM's (the address stays MAIL_FROM's): a person writing to a lead. */
  fromName?: string;
  /** Where replies go instead of MAIL_REPLY_TO (the lead's own reply address). */
  replyTo?: Mailbox;
  /** The Message-ID it answers (a reply to a lead's message), sent as In-Reply-To and References: it stays in their thread. */
  inReplyTo?: string;
};

/** One kind of email: its whole message, and its subject alone (the Email settings page and a lead's timeline show subjects without composing). */
export type Template = {
  compose: (data: unknown, ctx: MailContext) => ComposedEmail;
  subject: (data: unknown, ctx: MailContext) => string;
};

/** A zone name from a snapshot that this runtime may not know (an old row, a newer tz database): the firm's clock alone then. */
export const knownZone = (zone: string | null | undefined) => {
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
export const visitorWhen = (iso: string, timeZone: string, visitorZone: string | null | undefined) =>
  bothClocks(iso, timeZone, knownZone(visitorZone), { day: { ...LONG_WEEKDAY, year: 'numeric' } });

/** "Tue, Nov 24, 10:00 AM" for the lead's subjects, "Tue, Nov 24, 7:00 AM PST (10:00 AM EST)" when their clock reads otherwise. */
export const visitorShort = (iso: string, timeZone: string, visitorZone: string | null | undefined) =>
  bothClocks(iso, timeZone, knownZone(visitorZone), {
    day: { weekday: 'short', month: 'short', day: 'numeric' },
    joiner: ', ',
    zoneWhenAlone: false,
  });

/** A message's snapshot no longer matches what its template reads (a bug, or a row edited by hand). */
export class EmailDataError extends Error {}

// eslint-disable-next-line no-control-regex -- a header holds no control character
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g;
export const oneLine = (s: string) => s.replace(CONTROL_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

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
export function formatShort(iso: string, timeZone: string): string {
  let format = shortFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    shortFormats.set(timeZone, format);
  }
  return format.format(new Date(iso)).replace(/\u202f/g, ' ');
}

export type Block = { heading?: string; lines: string[] } | { rows: [string, string | null][] } | { link: { label: string; href: string } };

/** The plain-text and HTML parts of one message, from the same blocks, with the firm's contact block below. */
export function render(ctx: MailContext, greeting: string, blocks: Block[]): { text: string; html: string } {
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
          .map(
            ([label, value]) =>
              `<tr><th style="text-align:left;padding:4px 12px 4px 0;vertical-align:top;color:#475569">${escapeHtml(label)}</th><td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
          )
          .join('')}</table>`,
      );
    } else {
      text.push(`${block.link.label}: ${block.link.href}`, '');
      html.push(
        `<p style="margin:0 0 16px"><a href="${escapeHtml(block.link.href)}" style="color:#1d4ed8">${escapeHtml(block.link.label)}</a></p>`,
      );
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

export const propertyType = (types: string[]) => propertyTypesLabel(types) || null;

/** The snapshot as its template reads it; EmailDataError when it does not fit. */
export function parse<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  const result = schema.safeParse(data);
  if (!result.success) throw new EmailDataError(`the message's data does not fit its template: ${result.error.issues[0]?.path.join('.')}`);
  return result.data;
}
