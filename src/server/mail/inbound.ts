import { convert } from 'html-to-text';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import type { InboundAttachment, InboundMessage } from '../lib/inbound-message.ts';
import type { Mailbox } from '../lib/mail-settings.ts';

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
 * Did the receiving server see this From domain pass? Only the topmost Authentication-Results
 * counts: the one our own mail host added last; any below it came with the message and may be
 * forged. DMARC pass for the domain, or SPF and DKIM both pass with the domain aligned.
 */
export function senderPassed(authenticationResults: string | undefined, fromAddress: string): boolean {
  if (!authenticationResults) return false;
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase();
  const results = authenticationResults
    .toLowerCase()
    .split(';')
    .map((r) => r.trim());
  const aligned = (value: string | undefined) =>
    value !== undefined && (value === domain || value.endsWith(`.${domain}`) || domain.endsWith(`.${value}`));
  const field = (result: string, name: string) =>
    new RegExp(`(?:^|\\s)${name.replace('.', '\\.')}=("?)([^\\s";]+)\\1`).exec(result)?.[2]?.replace(/^.*@/, '');
  const dmarc = results.find((r) => /^dmarc=pass\b/.test(r));
  if (dmarc && (field(dmarc, 'header.from') === undefined || aligned(field(dmarc, 'header.from')))) return true;
  const spf = results.find((r) => /^spf=pass\b/.test(r) && aligned(field(r, 'smtp.mailfrom')));
  const dkim = results.find((r) => /^dkim=pass\b/.test(r) && (aligned(field(r, 'header.d')) || aligned(field(r, 'header.i'))));
  return spf !== undefined && dkim !== undefined;
}

/**
 * An HTML part as text: no scripts, styles or images (remote images are never fetched); a link
 * keeps its web address after its words (http and https only: a `javascript:` link keeps its words alone).
 */
export function htmlAsText(html: string | false | undefined): string {
  if (!html) return '';
  return convert(html.slice(0, 2_000_000), {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      {
        selector: 'a',
        options: { pathRewrite: (href: string) => (/^https?:\/\//i.test(href) ? href : ''), hideLinkHrefIfSameAsText: true },
      },
    ],
    limits: { maxInputLength: 2_000_000 },
  });
}

/** A raw message as we keep it. */
export async function readInbound(raw: Buffer): Promise<InboundMessage> {
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
  const delivered = [...headerLines(parsed, 'delivered-to'), ...headerLines(parsed, 'x-original-to')];
  const references = typeof parsed.references === 'string' ? parsed.references.split(/\s+/) : (parsed.references ?? []);
  const inReplyTo = messageIdOf(parsed.inReplyTo?.split(/\s+/)[0]);
  const answers = [
    ...new Set([inReplyTo, ...references.map((r) => messageIdOf(r)).reverse()].filter((id): id is string => id !== null)),
  ].slice(0, 50);
  const tooLarge = parsed.attachments.filter((a) => a.size > ATTACHMENT_MAX_BYTES);
  let body = wellFormed((parsed.text ?? htmlAsText(parsed.html)).replace(/\r\n?/g, '\n').replace(TEXT_CONTROL, '')).slice(0, BODY_MAX);
  if (tooLarge.length > 0)
    body += `\n\n[Not kept, larger than 10 MB: ${tooLarge.map((a) => oneLine(a.filename ?? 'attachment', NAME_MAX)).join(', ')}]`;
  const date = parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date : null;
  return {
    messageId: messageIdOf(parsed.messageId),
    inReplyTo,
    answers,
    from: { name: oneLine(from?.name ?? '', NAME_MAX), address: fromAddress },
    to: spell(to),
    cc: spell(cc),
    recipients: [
      ...new Set(
        [...to, ...cc]
          .map((a) => a.address)
          .concat(delivered)
          .map((a) => a.toLowerCase().trim()),
      ),
    ].slice(0, 100),
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
    senderVerified: fromAddress !== '' && senderPassed(headerLines(parsed, 'authentication-results')[0], fromAddress),
  };
}

/** The reply tokens in `recipients`: `local+token@domain` of the reply address (MAIL_REPLY_TO). */
export function replyTokensIn(recipients: readonly string[], replyTo: Mailbox | undefined): string[] {
  if (!replyTo) return [];
  const at = replyTo.address.lastIndexOf('@');
  const local = replyTo.address.slice(0, at).toLowerCase();
  const domain = replyTo.address.slice(at + 1).toLowerCase();
  const tokens = recipients.flatMap((address) => {
    const match = /^([^@+]+)\+([a-z0-9]{6,40})@(.+)$/.exec(address);
    return match && match[1] === local && match[3] === domain ? [match[2]!] : [];
  });
  return [...new Set(tokens)];
}
