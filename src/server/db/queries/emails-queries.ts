import { sql, type SQL } from 'drizzle-orm';
import { MESSAGE_BOOKING_LINK_DAYS } from '#shared/constants';
import * as z from 'zod';
import type { Config } from '../../config.ts';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, queryRows } from '../sql.ts';
import { mintToken } from '../../lib/secret-token.ts';

/**
 * The email outbox. Messages are queued by the statements that cause them (a lead, an
 * appointment change, the reminder job), in the same transaction, with a snapshot of what
 * they say; a worker per app process claims due ones, sends them and records the outcome
 * (src/server/mail/outbox.ts).
 */

export const EMAIL_KINDS = [
  'new-lead',
  'lead-acknowledgement',
  'appointment',
  'appointment-reminder',
  'test',
  'invite',
  'password-changed',
  'password-reset',
  'weekly-report',
  'booking-confirmation',
  'lead-message',
  'lead-reply',
  'task-digest',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];
/** Emails written to the lead (staff copies and reports are about the lead, not to them): the lead's conversation. */
export const EMAILS_TO_LEAD: readonly EmailKind[] = ['lead-acknowledgement', 'appointment', 'appointment-reminder', 'lead-message'];
export const EMAIL_STATUSES = ['queued', 'sent', 'failed', 'not_sent'] as const;

export const EMAIL_OFF_REASON = 'Email is off: set SMTP_URL (and MAIL_FROM) and restart the server to send it.';

/**
 * How the statements that cause mail queue it: `domain` names the Message-IDs; without a mail
 * server (`sending` false) a message is recorded as not sent, with why, and no worker touches it.
 */
export type QueueMail = {
  domain: string;
  sending: boolean;
  /** PUBLIC_MAIL_PER_ADDRESS_PER_DAY: what mail a visitor causes may spend per address (absent: the default, 5). */
  publicPerDay?: number;
};

export const queueMailOf = (mail: Config['mail']): QueueMail => ({
  domain: mail.domain,
  sending: mail.smtp !== undefined,
  publicPerDay: mail.publicPerAddressPerDay,
});

/** PUBLIC_MAIL_PER_ADDRESS_PER_DAY's default. */
export const PUBLIC_MAIL_PER_DAY_DEFAULT = 5;

/**
 * Mail a website visitor caused (their form, booking, booking change, or a link they asked to
 * be mailed) is queued with this as its `visitor_budget` column; staff's and the firm's own mail
 * leaves the column null. The database then, in the insert itself (trigger emails_visitor_mail,
 * migration 0019), under a lock on the recipient so that processes cannot both spend its last unit:
 * - drops the display name (the visitor typed it: the message goes to the bare address);
 * - stores the message `not_sent`, with the reason in `last_error`, when the address already had
 *   `publicPerDay` such messages in the last 24 hours (a team member's own address excepted), or,
 *   for an acknowledgement, had one in the last 30 days;
 * - otherwise spends one unit of the address's budget (`public_mail_spends`).
 * So a caller learns the outcome from the row it inserted (`returning status`), and a refused
 * message is never lost: staff see it, with why, on the Email page and the lead's timeline.
 * Example: `insert into emails (message_id, status, last_error, kind, to_address, data, lead_id, visitor_budget)
 * values (${newEmail(mail)}, 'kind', ${address}, ${data}, ${leadId}, ${visitorBudget(mail)}) returning status`.
 */
export const visitorBudget = (mail: QueueMail): SQL => sql`${mail.publicPerDay ?? PUBLIC_MAIL_PER_DAY_DEFAULT}::int`;

/** The start of the reason a message over the budget is recorded not sent with (the trigger writes it). */
export const PUBLIC_MAIL_BUDGET_REASON = 'Not sent: this address already had';

/**
 * How many more emails visitors may cause to `address` now (Infinity: no budget applies, as
 * PUBLIC_MAIL_PER_ADDRESS_PER_DAY is 0 or the address is an active team member's). A check
 * that spends nothing: a caller that must not queue past the budget (a booking that needs a
 * confirmation link) asks first, and still reads the status of the row it then inserts, since
 * another process may spend the last unit in between (or takes `lockPublicMailAddress` first,
 * in its own transaction, to hold the address until it commits).
 */
export async function publicMailBudgetLeft(db: Db, address: string, perDay = PUBLIC_MAIL_PER_DAY_DEFAULT): Promise<number> {
  if (perDay <= 0) return Infinity;
  const [row] = await queryRows(
    db,
    sql`select exists (select 1 from users where email = lower(btrim(${address}::text)) and deactivated_at is null) as team,
      (select count(*)::int from public_mail_spends where address_key = crm_public_mail_key(${address}::text) and spent_at > crm_now() - interval '24 hours') as spent`,
    z.object({ team: z.boolean(), spent: z.number().int() }),
  );
  if (!row || row.team) return Infinity;
  return Math.max(0, perDay - row.spent);
}

/**
 * Holds `address`'s budget until the transaction `db` is in ends (the lock the trigger takes):
 * between this and the commit, a publicMailBudgetLeft check and the insert it allowed are exact.
 */
export async function lockPublicMailAddress(db: Db, address: string): Promise<void> {
  await execute(db, sql`select pg_advisory_xact_lock(4201312, hashtext(crm_public_mail_key(${address}::text)))`);
}

/** The budget's records older than the longest rule (one acknowledgement per 30 days) serve nothing. */
export async function deleteOldPublicMailSpends(db: Db): Promise<number> {
  return execute(db, sql`delete from public_mail_spends where spent_at < crm_now() - interval '30 days'`);
}

/**
 * The values of `message_id, status, last_error` for a new message: a Message-ID
 * (`<uuid@domain>`) fixed when it is queued, and queued, or not sent when email is off.
 */
export const newEmail = (mail: QueueMail): SQL =>
  sql`'<' || gen_random_uuid()::text || '@' || ${mail.domain}::text || '>', ${mail.sending ? 'queued' : 'not_sent'}, ${mail.sending ? null : EMAIL_OFF_REASON}`;

/** A message as the worker sends it. */
export const outgoingEmailSchema = z.object({
  id: z.uuid(),
  message_id: z.string(),
  kind: z.enum(EMAIL_KINDS),
  to_address: z.string(),
  to_name: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  attempts: z.number().int(),
  retry_until: z.string(),
});
export type OutgoingEmail = z.infer<typeof outgoingEmailSchema>;

/**
 * Claims up to `limit` due messages for `leaseSeconds`: no other worker (in this process or
 * another, `for update skip locked`) takes them meanwhile; if this one dies, they are due
 * again when the lease ends.
 */
export function claimDueEmails(db: Db, limit: number, leaseSeconds: number): Promise<OutgoingEmail[]> {
  return queryRows(
    db,
    sql`
    update emails set locked_until = crm_now() + make_interval(secs => ${leaseSeconds})
    where id in (
      select id from emails
      where status = 'queued' and next_attempt_at <= crm_now() and (locked_until is null or locked_until < crm_now())
      order by next_attempt_at, created_at
      limit ${limit}
      for update skip locked)
    returning id, message_id, kind, to_address, to_name, data, attempts, ${isoTimestamp(sql`retry_until`)} as retry_until`,
    outgoingEmailSchema,
  );
}

// A one-time link (an invitation's or a password reset's `link`, a booking's `manage_path`) is
// kept in a message's data only until the message is sent, fails or is recorded not sent: trigger
// emails_without_link (migration 0019) removes it from any row whose status is not queued, so
// the updates below need not.

export async function markEmailSent(db: Db, id: string): Promise<void> {
  await execute(
    db,
    sql`
    update emails set status = 'sent', sent_at = crm_now(), attempts = attempts + 1, locked_until = null, last_error = null
    where id = ${id}`,
  );
}

/** A send that failed for good (the server refused the message, or it was retried for a day). */
export async function markEmailFailed(db: Db, id: string, reason: string, attempted: boolean): Promise<void> {
  await execute(
    db,
    sql`
    update emails set status = 'failed', attempts = attempts + ${attempted ? 1 : 0}, locked_until = null, last_error = ${reason.slice(0, 1000)}
    where id = ${id}`,
  );
}

/** Due again after `delaySeconds`; `attempted` counts a refused try (not a server that could not be reached). */
export async function retryEmailLater(db: Db, id: string, delaySeconds: number, reason: string, attempted: boolean): Promise<void> {
  await execute(
    db,
    sql`
    update emails set attempts = attempts + ${attempted ? 1 : 0}, locked_until = null, last_error = ${reason.slice(0, 1000)},
      next_attempt_at = crm_now() + make_interval(secs => ${delaySeconds})
    where id = ${id}`,
  );
}

/** Gives back claimed messages unsent (the worker stopped early). */
export async function releaseEmails(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await execute(
    db,
    sql`update emails set locked_until = null where id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
}

/** With the embedded database one process serves: any lease left is a dead process's. */
export async function releaseAllEmailClaims(db: Db): Promise<number> {
  return execute(db, sql`update emails set locked_until = null where status = 'queued' and locked_until is not null`);
}

/** Email is off: due messages are recorded as not sent, with why. */
export async function markDueEmailsNotSent(db: Db, reason: string): Promise<number> {
  return execute(
    db,
    sql`
    update emails set status = 'not_sent', last_error = ${reason}
    where status = 'queued' and next_attempt_at <= crm_now()`,
  );
}

/** Queues the test email to an admin; its id. */
export async function queueTestEmail(db: Db, user: { email: string }, mail: QueueMail): Promise<string> {
  const [row] = await queryRows(
    db,
    sql`
    insert into emails (message_id, status, last_error, kind, to_address, data)
    values (${newEmail(mail)}, 'test', ${user.email}, '{}'::jsonb)
    returning id`,
    z.object({ id: z.uuid() }),
  );
  return row!.id;
}

/**
 * A failed (or unsent) message queued again, with another day of retries; 'not_found' if there
 * is no such message (of that kind, to or about that lead, when `of` narrows it). A message to a
 * lead whose text holds {{booking_link}} lost its link when it failed (links are kept only while
 * queued): `relink` gives it a new one, made in the same statement.
 */
export async function retryEmail(
  db: Db,
  id: string,
  of?: { leadId: string; kind: EmailKind },
  relink?: BookingLinkToken,
): Promise<'queued' | 'not_found' | 'not_failed'> {
  const scope = of ? sql` and lead_id = ${of.leadId} and kind = ${of.kind}` : sql``;
  const needsLink = relink
    ? sql`(coalesce(e.data->>'subject', '') || coalesce(e.data->>'body', '')) ~ ${BOOKING_LINK_PATTERN}`
    : sql`false`;
  const [row] = await queryRows(
    db,
    sql`
    with target as (select id, status from emails where id = ${id}${scope}),
    queued as (
      update emails e set status = 'queued', next_attempt_at = crm_now(), retry_until = crm_now() + interval '24 hours',
        attempts = 0, last_error = null, locked_until = null,
        data = case when ${needsLink} then e.data || jsonb_build_object('link', ${relink?.path ?? null}::text) else e.data end
      from target t where e.id = t.id and t.status in ('failed', 'not_sent')
      returning e.id, e.lead_id, ${needsLink} as linked),
    link as (
      insert into booking_tokens (token_hash, lead_id, expires_at)
      select ${relink?.hash ?? null}::text, q.lead_id, crm_now() + make_interval(days => ${MESSAGE_BOOKING_LINK_DAYS})
      from queued q where q.linked and q.lead_id is not null)
    select t.status, exists (select 1 from queued) as queued from target t`,
    z.object({ status: z.enum(EMAIL_STATUSES), queued: z.boolean() }),
  );
  if (!row) return 'not_found';
  return row.queued ? 'queued' : 'not_failed';
}

/** {{booking_link}} as PostgreSQL's regular expressions spell it (spaces allowed inside the braces). */
const BOOKING_LINK_PATTERN = '\\{\\{\\s*booking_link\\s*\\}\\}';

/** A booking link made for one message: its token's hash (kept) and its path (kept with the message until it is sent). */
export type BookingLinkToken = { hash: string; path: string };

/** A new booking link for a message to a lead ({{booking_link}}), good for MESSAGE_BOOKING_LINK_DAYS. */
export function newMessageBookingLink(): BookingLinkToken {
  const { token, hash } = mintToken();
  return { hash, path: `/booking/${token}` };
}

export const emailListItemSchema = z.object({
  id: z.uuid(),
  kind: z.enum(EMAIL_KINDS),
  to_address: z.string(),
  to_name: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  status: z.enum(EMAIL_STATUSES),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  next_attempt_at: z.string(),
});
export type EmailListItem = z.infer<typeof emailListItemSchema>;

/** The newest messages, for the Email settings page. */
export function listRecentEmails(db: Db, limit: number): Promise<EmailListItem[]> {
  return queryRows(
    db,
    sql`
    select id, kind, to_address, to_name, data, status, attempts, last_error,
      ${isoTimestamp(sql`created_at`)} as created_at,
      case when sent_at is null then null else ${isoTimestamp(sql`sent_at`)} end as sent_at,
      ${isoTimestamp(sql`next_attempt_at`)} as next_attempt_at
    from emails order by created_at desc, id desc limit ${limit}`,
    emailListItemSchema,
  );
}

/** How many messages wait to be sent (for the page and the logs). */
export async function countQueuedEmails(db: Db): Promise<number> {
  const [row] = await queryRows(db, sql`select count(*)::int as n from emails where status = 'queued'`, z.object({ n: z.number().int() }));
  return row?.n ?? 0;
}
