import { convert } from 'html-to-text';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { asksToStop } from './stop-request.ts';
import type { InboundAttachment, InboundMessage } from '../lib/inbound-message.ts';

/**
 * Mail read from the reply mailbox, as we keep it: addresses, subject, date and text only. HTML
 * is turned into text (never kept or shown as HTML); names and subjects lose line breaks and
 * control characters (an encoded-word can hide a CR/LF); everything has a length limit. A
 * message the parser cannot read is kept as a note saying so, with what the server told us.
 */
export type { InboundAttachment, InboundMessage };

/** The largest attachment kept; a larger one is named in the text instead. */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
const BODY_MAX = 200_000;
const SUBJECT_MAX = 500;
const NAME_MAX = 200;
const ADDRESSES_MAX = 2_000;
const ID_MAX = 500;

// eslint-disable-next-line no-control-regex -- what a one-line header value may not hold
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
// eslint-disable-next-line no-control-regex -- a text keeps its line breaks and tabs only
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** A date PostgreSQL can store and people can mean (years 1900 to 9999); null otherwise. */
export function storableDate(value: Date | string | undefined | null): Date | null {
  if (value === undefined || value === null) return null;
  const date = new Date(value);
  const year = date.getUTCFullYear();
  return Number.isNaN(date.getTime()) || year < 1900 || year > 9999 ? null : date;
}

/** One line, without control characters, at most `max` characters; lone surrogates dropped (PostgreSQL cannot store them). */
export const oneLine = (value: string, max: number) => wellFormed(value.replace(CONTROL, ' ').trim()).slice(0, max).trim();
const wellFormed = (value: string) => value.replace(/\p{Cs}/gu, '');

const addressesOf = (header: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(header) ? header : header ? [header] : []).flatMap((h) => flatten(h.value));
const flatten = (
  list: { name: string; address?: string; group?: { name: string; address?: string }[] }[],
): { name: string; address: string }[] =>
  list.flatMap((a) => (a.group ? flatten(a.group) : a.address ? [{ name: a.name, address: a.address }] : []));

const spell = (list: { name: string; address: string }[]) =>
  oneLine(list.map((a) => (a.name ? `${oneLine(a.name, NAME_MAX)} <${a.address}>` : a.address)).join(', '), ADDRESSES_MAX);

/** `<id@host>` as a Message-ID is compared: inside its angle brackets, one line. */
const messageIdOf = (value: string | undefined) => {
  const id = value ? oneLine(value, ID_MAX) : '';
  return id ? (id.startsWith('<') ? id : `<${id}>`) : null;
};

function headerLines(parsed: ParsedMail, key: string): string[] {
  return parsed.headerLines
    .filter((h) => h.key === key)
    .map((h) =>
      h.line
        .slice(h.line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
    );
}

/**
 * Did the firm's own mail host see this From domain pass? Only an Authentication-Results header
 * it wrote counts: the one whose authserv-id is `authservId` (IMAP_AUTHSERV_ID). Without that
 * setting none is believed, not even the topmost: a mail host that adds none (a forwarder,
 * Dovecot delivering without a DMARC filter) leaves on top the one the sender wrote. Comments and
 * quoted strings are removed before the results are read, so nothing in them can pose as a
 * result. Passing: DMARC for exactly the From domain, or SPF and DKIM both for that domain or a
 * subdomain of it.
 */
export function senderPassed(headers: readonly string[], fromAddress: string, authservId: string | undefined): boolean {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase();
  if (!domain || !authservId) return false;
  const cleaned = headers.map((h) => withoutComments(h).toLowerCase());
  const ours = cleaned.find((h) => h.split(';')[0]!.trim().split(/\s+/)[0] === authservId.toLowerCase());
  if (!ours) return false;
  const results = ours
    .split(';')
    .slice(1)
    .map((r) => r.trim());
  const field = (result: string, name: string) =>
    new RegExp(`(?:^|\\s)${name.replace('.', '\\.')}=([^\\s]+)`).exec(result)?.[1]?.replace(/^.*@/, '');
  const within = (value: string | undefined) => value !== undefined && (value === domain || value.endsWith(`.${domain}`));
  if (results.some((r) => /^dmarc=pass\b/.test(r) && field(r, 'header.from') === domain)) return true;
  const spf = results.some((r) => /^spf=pass\b/.test(r) && within(field(r, 'smtp.mailfrom')));
  const dkim = results.some((r) => /^dkim=pass\b/.test(r) && (within(field(r, 'header.d')) || within(field(r, 'header.i'))));
  return spf && dkim;
}

/** A header value without its (comments), nested ones included, and with "quoted strings" emptied. */
function withoutComments(value: string): string {
  let out = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (quoted) {
      if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) {
      if (ch === '"') {
        quoted = true;
        out += '""';
      } else out += ch;
    }
  }
  return out;
}

/**
 * An HTML part as text: no scripts, styles or images (remote images are never fetched); a link
 * keeps its web address after its words (http and https only: a `javascript:` link keeps its words alone).
 */
export function htmlAsText(html: string | false | undefined): string {
  if (!html) return '';
  return convert(flattenedPast(html.slice(0, 2_000_000), MAX_HTML_DEPTH), {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      {
        selector: 'a',
        options: { pathRewrite: (href: string) => (/^https?:\/\//i.test(href) ? href : ''), hideLinkHrefIfSameAsText: true },
      },
    ],
    limits: { maxInputLength: 2_000_000, maxDepth: MAX_HTML_DEPTH },
  });
}

/** Deeper than any mail app writes: past it, tags are dropped and their words kept (flattenedPast). */
const MAX_HTML_DEPTH = 200;

/** Elements that never hold others, and those a parser closes when the next one opens: neither nests. */
const FLAT_ELEMENTS = new Set('area base br col embed hr img input link meta source track wbr p li dt dd option tr td th'.split(' '));

/**
 * `html` with every tag deeper than `maxDepth` removed, their text kept, in one pass. HTML
 * nested 100,000 deep (which a stranger may mail us) costs the parser time growing with the
 * square of the depth, and would overflow the stack; cut here, the parser sees at most
 * `maxDepth` levels. The depth is counted from the tags alone, as a guess a browser would not
 * make, so a sloppy message may lose some formatting past that depth, never its words.
 */
export function flattenedPast(html: string, maxDepth: number): string {
  let depth = 0;
  return html.replace(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*>/g, (tag, closing: string, name: string) => {
    if (FLAT_ELEMENTS.has(name.toLowerCase()) || tag.endsWith('/>')) return tag;
    if (closing) {
      const inside = depth > maxDepth;
      depth = Math.max(0, depth - 1);
      return inside ? '' : tag;
    }
    depth++;
    return depth > maxDepth ? '' : tag;
  });
}

/** A raw message as we keep it. */
export async function readInbound(raw: Buffer, authservId?: string): Promise<InboundMessage> {
  const parsed = await simpleParser(raw, {
    skipImageLinks: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipHtmlToText: true,
  });
  const from = addressesOf(parsed.from)[0];
  const fromAddress = (from?.address ?? '').toLowerCase().slice(0, 254);
  const to = addressesOf(parsed.to);
  const cc = addressesOf(parsed.cc);
  const references = typeof parsed.references === 'string' ? parsed.references.split(/\s+/) : (parsed.references ?? []);
  const inReplyTo = messageIdOf(parsed.inReplyTo?.split(/\s+/)[0]);
  const answers = [
    ...new Set([inReplyTo, ...references.map((r) => messageIdOf(r)).reverse()].filter((id): id is string => id !== null)),
  ].slice(0, 50);
  const tooLarge = parsed.attachments.filter((a) => a.size > ATTACHMENT_MAX_BYTES);
  // An HTML-only message comes with an empty text: its HTML, as text, then.
  let body = wellFormed((parsed.text || htmlAsText(parsed.html)).replace(/\r\n?/g, '\n').replace(TEXT_CONTROL, '')).slice(0, BODY_MAX);
  if (tooLarge.length > 0)
    body += `\n\n[Not kept, larger than 10 MB: ${tooLarge.map((a) => oneLine(a.filename ?? 'attachment', NAME_MAX)).join(', ')}]`;
  const date = storableDate(parsed.date);
  return {
    messageId: messageIdOf(parsed.messageId),
    inReplyTo,
    answers,
    from: { name: oneLine(from?.name ?? '', NAME_MAX), address: fromAddress },
    to: spell(to),
    cc: spell(cc),
    // Where a reply token may be found: To and Cc only. Delivered-To and X-Original-To may be
    // written by the sender too, where the mail host adds none.
    recipients: [...new Set([...to, ...cc].map((a) => a.address.toLowerCase().trim()))].slice(0, 100),
    subject: oneLine(parsed.subject ?? '', SUBJECT_MAX),
    date,
    body,
    attachments: parsed.attachments
      .filter((a) => a.size <= ATTACHMENT_MAX_BYTES && !a.related)
      .slice(0, 50)
      .map((a) => ({
        filename: oneLine(a.filename ?? 'attachment', NAME_MAX) || 'attachment',
        contentType: oneLine(a.contentType ?? 'application/octet-stream', 100),
        size: a.size,
        content: a.content,
      })),
    asksToStop: asksToStop(parsed.subject ?? '', body),
    senderVerified: fromAddress !== '' && senderPassed(headerLines(parsed, 'authentication-results'), fromAddress, authservId),
  };
}
