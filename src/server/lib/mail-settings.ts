import addressparser from 'nodemailer/lib/addressparser';
import { EMAIL_PATTERN } from '#shared/rules/lead-fields';

/** A mailbox: a display name (maybe empty) and an address. */
export type Mailbox = { name: string; address: string };

/** Where and how to send: parsed from SMTP_URL. The password never leaves this object. */
export type SmtpSettings = {
  host: string;
  port: number;
  /** smtps:// — TLS from the first byte (465). Otherwise STARTTLS whenever the server offers it. */
  secure: boolean;
  auth: { user: string; pass: string } | undefined;
};

// eslint-disable-next-line no-control-regex -- a header value may hold no control character
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * `"Keystone Due Diligence" <hello@firm.com>` or `hello@firm.com` as a Mailbox; an error
 * message for anything else (several addresses, a group, a bad address, a line break).
 */
export function parseMailbox(value: string): Mailbox | string {
  if (CONTROL.test(value)) return 'must be one line';
  const parsed = addressparser(value, { flatten: true });
  if (parsed.length !== 1 || !parsed[0]?.address) return 'must be one address, such as "Firm Name" <hello@firm.com>';
  const { name, address } = parsed[0];
  if (!EMAIL_PATTERN.test(address)) return `has an invalid address "${address}"`;
  return { name: name.trim(), address: address.toLowerCase() };
}

/** smtp://user:pass@host:587 or smtps://user:pass@host:465; an error message otherwise. */
export function parseSmtpUrl(value: string): SmtpSettings | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL such as smtp://user:password@mail.example.com:587';
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return 'must start with smtp:// or smtps://';
  if (!url.hostname) return 'must name the mail server';
  if (url.pathname !== '' && url.pathname !== '/') return 'must not have a path';
  const secure = url.protocol === 'smtps:';
  const user = decodeURIComponent(url.username);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: user ? { user, pass: decodeURIComponent(url.password) } : undefined,
  };
}

/** How the mail server and sender show on the Email settings page: no password. */
export const describeSmtp = (smtp: SmtpSettings) =>
  `${smtp.secure ? 'smtps' : 'smtp'}://${smtp.auth ? `${smtp.auth.user}@` : ''}${smtp.host}:${smtp.port}`;

export const formatMailbox = (m: Mailbox) => (m.name ? `"${m.name.replace(/["\\]/g, '')}" <${m.address}>` : m.address);

/** Where replies are read from: parsed from IMAP_URL. The password never leaves this object. */
export type ImapSettings = {
  host: string;
  port: number;
  /** imaps:// — TLS from the first byte (993). imap:// — no TLS, accepted on this machine's loopback only. */
  secure: boolean;
  auth: { user: string; pass: string };
  /** The folder replies arrive in (INBOX unless the URL's path names another). */
  mailbox: string;
};

const isLoopbackHost = (host: string) => host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';

/**
 * imaps://user:password@host:993/INBOX (or another folder); imap:// only to this machine's
 * loopback, where nothing crosses a network. An error message otherwise.
 */
export function parseImapUrl(value: string): ImapSettings | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL such as imaps://user:password@imap.example.com:993/INBOX';
  }
  if (url.protocol !== 'imap:' && url.protocol !== 'imaps:') return 'must start with imaps:// (or imap:// on this machine)';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) return 'must name the mail server';
  const secure = url.protocol === 'imaps:';
  if (!secure && !isLoopbackHost(host)) return 'must use imaps:// (TLS): imap:// is accepted on this machine’s loopback only';
  const user = decodeURIComponent(url.username);
  if (!user) return 'must name the user: imaps://user:password@host/INBOX';
  const mailbox = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'INBOX';
  if (CONTROL.test(mailbox)) return 'must name a folder on one line';
  return {
    host,
    port: url.port ? Number(url.port) : secure ? 993 : 143,
    secure,
    auth: { user, pass: decodeURIComponent(url.password) },
    mailbox,
  };
}

/** How the reply mailbox shows on the Email settings page: no password. */
export const describeImap = (imap: ImapSettings) =>
  `${imap.secure ? 'imaps' : 'imap'}://${imap.auth.user}@${imap.host}:${imap.port}/${imap.mailbox}`;
