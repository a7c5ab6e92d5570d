import { randomBytes } from 'node:crypto';
import type { Mailbox } from '../lib/mail-settings.ts';

/**
 * A lead's reply address: the firm's reply address (MAIL_REPLY_TO) with the lead's token after a
 * plus, `replies+k3x9…@firm.com`. The token is made with the lead's first message and kept
 * (db/queries/lead-messages-queries.ts, queueLeadMessage, joins the parts below with it); a reply sent
 * to that address joins the lead (match-reply.ts).
 */

/** A new reply token: ten characters of [a-z0-9] (about 51 bits), so it survives mail systems that change an address's case. */
export function newReplyToken(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(10)].map((b) => alphabet[b % 36]).join('');
}

/** The reply address around a token: its local part, and `@` with its domain; nulls without MAIL_REPLY_TO. */
export function replyAddressParts(replyTo: Mailbox | undefined): [local: string, domain: string] | [null, null] {
  if (!replyTo) return [null, null];
  const at = replyTo.address.lastIndexOf('@');
  return [replyTo.address.slice(0, at), replyTo.address.slice(at)];
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
