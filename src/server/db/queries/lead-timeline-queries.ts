import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import type { TimelineEntry, TimelineResponse } from '#shared/schemas/lead-workspace';
import type { Db } from '../client.ts';
import { isoTimestamp, queryRows } from '../sql.ts';
import { PREPARED } from '../prepared-statements.ts';
import { EMAIL_KINDS, EMAILS_TO_LEAD, type EmailKind } from './emails-queries.ts';

/*
 * A lead's timeline: everything that happened to it, newest first, from five tables in one
 * statement (UNION ALL):
 * - the lead row itself (`created`: by the form, an import or staff; its first status
 *   change names the admin; its message and the visit that brought it);
 * - `lead_events` (a repeated inquiry, appointment changes written by the appointments
 *   trigger, owner and next-step changes, merges, imports);
 * - `lead_status_changes` (but the first null → New: that is `created`);
 * - `lead_notes`;
 * - `emails` written to the lead (acknowledgement, appointment mail, reminder), whose subject
 *   the caller composes as the outbox does (db/ knows nothing of mail).
 */

/** The longest text of a reply the timeline carries (the rest: `truncated`). */
const TIMELINE_BODY_MAX = 20_000;

/**
 * Within one instant (one transaction writes a lead, its history and its mail at the same
 * crm_now()), the order the entries happened in: the lead first, then what it caused.
 */
const RANK = {
  created: 0,
  imported: 1,
  merged: 2,
  inquiry: 3,
  status: 4,
  stage: 4,
  owner: 5,
  follow_up: 6,
  appointment: 7,
  note: 8,
  call: 8,
  task: 8,
  email_out: 9,
  email_in: 10,
} as const;

const rowSchema = z.object({
  id: z.string(),
  kind: z.enum(Object.keys(RANK) as [keyof typeof RANK, ...(keyof typeof RANK)[]]),
  at: z.string(),
  actor: z.string().nullable(),
  actor_email: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
type Row = z.infer<typeof rowSchema>;

/** The visit of a submission, from columns (or JSON values) named `source`, `utm_*`, `landing_page`, `pages_viewed`; null without any. */
function visit(source: SQL, utmSource: SQL, utmMedium: SQL, utmCampaign: SQL, landingPage: SQL, pagesViewed: SQL): SQL {
  return sql`case when coalesce(${source}, ${utmSource}, ${utmMedium}, ${utmCampaign}, ${landingPage}, (${pagesViewed})::text) is null then null
    else jsonb_build_object('source', ${source}, 'utm_source', ${utmSource}, 'utm_medium', ${utmMedium}, 'utm_campaign', ${utmCampaign},
      'landing_page', ${landingPage}, 'pages_viewed', (${pagesViewed})::int) end`;
}

const text = (key: string) => sql`(e.data->>${key})`;

/** What each lead_events kind says, in the contract's names. */
const eventData = sql`case e.kind
  when 'inquiry' then jsonb_build_object('message', e.data->'message', 'full_name', e.data->'full_name', 'phone', e.data->'phone',
    'visit', ${visit(text('source'), text('utm_source'), text('utm_medium'), text('utm_campaign'), text('landing_page'), text('pages_viewed'))})
  when 'appointment' then jsonb_build_object('action', e.data->'action', 'appointment_id', e.data->'appointment_id', 'type', e.data->'type',
    'date', e.data->'date', 'time', e.data->'time', 'from_date', e.data->'from_date', 'from_time', e.data->'from_time', 'by', e.data->'by',
    -- Booked through a repeat form's link: the name typed on that form (docs/product-rules.md, "Booking").
    'booked_as', (select x.data->'full_name' from appointments ap join lead_events x on x.id = ap.inquiry_id
                  where ap.id = (e.data->>'appointment_id')::uuid))
    || case when e.data ? 'reason' then jsonb_build_object('reason', e.data->'reason') else '{}'::jsonb end
  when 'owner' then jsonb_build_object('from', e.data->'from', 'to', e.data->'to')
  when 'follow_up' then jsonb_build_object('on', e.data->'on', 'note', e.data->'note')
  when 'stage' then jsonb_build_object('from', e.data->'from', 'to', e.data->'to', 'lost_reason', e.data->'lost_reason')
  when 'call' then jsonb_build_object('outcome', e.data->'outcome', 'duration_minutes', e.data->'duration_minutes', 'notes', e.data->'notes')
  when 'task' then jsonb_build_object('task_type', e.data->'type', 'title', e.data->'title')
  when 'merged' then jsonb_build_object('full_name', coalesce(e.data->'full_name', '""'), 'email', coalesce(e.data->'email', '""'))
  when 'imported' then jsonb_build_object('file', e.data->'file')
  else '{}'::jsonb end`;

const eventRank = sql`case e.kind ${sql.join(
  (['inquiry', 'appointment', 'owner', 'follow_up', 'merged', 'imported', 'stage', 'call', 'task'] as const).map(
    (k) => sql`when ${k} then ${RANK[k]}::int`,
  ),
  sql` `,
)} end`;

/** The emails of the lead's conversation (`m`, joined to the lead `l`): those written to them. */
const emailsToLead = sql`(m.to_address = l.email or m.kind = 'lead-message') and m.kind in (${sql.join(
  EMAILS_TO_LEAD.map((k) => sql`${k}`),
  sql`, `,
)})`;

/**
 * Two CTEs: `conversation`, the lead's messages both ways, each with its thread and its place in
 * the timeline's order; `threads`, each thread's newest message (`head`, the one the timeline
 * shows, at the thread's latest time), how many messages it holds and how many are unread.
 */
const conversationCtes = (leadId: string, threadId?: string) => {
  // One thread's messages only (found by the thread indexes and the primary keys).
  const of = (t: string) =>
    threadId ? sql`and (${sql.raw(t)}.thread_id = ${threadId}::uuid or ${sql.raw(t)}.id = ${threadId}::uuid)` : sql``;
  return sql`conversation as (
  select 'email:' || m.id::text as key, coalesce(m.thread_id, m.id) as thread, m.created_at as at, ${RANK.email_out}::int as rank,
    false as unread
  from emails m join leads l on l.id = m.lead_id where m.lead_id = ${leadId} and ${emailsToLead} ${of('m')}
  union all
  select 'email_in:' || i.id::text, coalesce(i.thread_id, i.id), i.received_at, ${RANK.email_in}::int, i.read_at is null
  from inbound_emails i where i.lead_id = ${leadId} ${of('i')}
), threads as (
  select distinct on (thread) thread, key as head, (count(*) over (partition by thread))::int as size,
    (count(*) filter (where unread) over (partition by thread))::int as unread
  from conversation order by thread, at desc, rank desc, key desc
)`;
};

const threadData = sql`'thread_id', t.thread, 'thread_size', t.size, 'thread_unread', t.unread`;

/** The emails written to the lead as entries, joined to their thread (`t`) by `joinThread`. */
const emailOutSelect = (leadId: string, joinThread: SQL) =>
  sql`select 'email:' || m.id::text as id, 'email_out' as kind, m.created_at as at, ${RANK.email_out}::int as rank, m.sent_by as actor_id,
      jsonb_build_object('email_id', m.id, 'email_kind', m.kind, 'to', m.to_address, 'status', m.status, 'error', m.last_error,
        'email_data', m.data, ${threadData}) as data
    from emails m join leads l on l.id = m.lead_id ${joinThread}
    where m.lead_id = ${leadId} and ${emailsToLead}`;

/** The lead's mail read from the reply mailbox as entries, joined to their thread (`t`) by `joinThread`. */
const emailInSelect = (leadId: string, joinThread: SQL) =>
  sql`select 'email_in:' || i.id::text as id, 'email_in' as kind, i.received_at as at, ${RANK.email_in}::int as rank, null::uuid as actor_id,
      jsonb_build_object('email_in_id', i.id, 'from', i.from_address, 'from_name', i.from_name, 'to', i.to_addresses,
        'cc', i.cc_addresses, 'subject', i.subject, 'body', left(i.body, ${TIMELINE_BODY_MAX}), 'truncated', length(i.body) > ${TIMELINE_BODY_MAX},
        'sent_at', ${isoTimestamp(sql`i.sent_at`)}, 'sender_verified', i.sender_verified, 'from_someone_else', i.from_someone_else,
        'unread', i.read_at is null,
        'answers_email_id', i.answers_email_id, ${threadData},
        'attachments', (select coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'filename', a.filename, 'size', a.size) order by a.filename, a.id), '[]'::jsonb)
          from inbound_attachments a where a.email_id = i.id)) as data
    from inbound_emails i ${joinThread}
    where i.lead_id = ${leadId}`;

type Window = { before?: string; from?: string; limit: number };

/**
 * One page of entries: older than `before`, at or after `from`, newest first, `limit` at most.
 * Each branch is cut to `limit` in the same order before the union, so a long history of one
 * kind costs no more than a page of it.
 */
function selectEntries(db: Db, leadId: string, { before, from, limit }: Window): Promise<Row[]> {
  const window = (at: SQL) =>
    sql`${before ? sql`and ${at} < ${before}::timestamptz` : sql``} ${from ? sql`and ${at} >= ${from}::timestamptz` : sql``}`;
  // Ties: the same millisecond (what `at` shows and `before` compares), the same instant, the order of RANK, then the id.
  const order = (at: SQL, rank: SQL, id: SQL) =>
    sql`order by date_trunc('milliseconds', ${at}) desc, ${at} desc, ${rank} desc, ${id} desc limit ${limit}`;
  const branch = (select: SQL, at: SQL, rank: SQL, id: SQL) => sql`(${select} ${window(at)} ${order(at, rank, id)})`;
  // Prepared (one text per combination of bounds): planning five branches costs about as much as running them.
  return queryRows(
    db,
    sql`
    with ${conversationCtes(leadId)}, first_change as (
      select id, from_status, changed_by from lead_status_changes where lead_id = ${leadId} order by changed_at, id limit 1
    ), entries as (
      ${branch(
        sql`select 'created:' || l.id::text as id, 'created' as kind, l.created_at as at, ${RANK.created}::int as rank,
          (select changed_by from first_change) as actor_id,
          jsonb_build_object(
            'via', case when l.submission_id is not null then 'form'
                        when exists (select 1 from lead_events i where i.lead_id = l.id and i.kind = 'imported') then 'import'
                        else 'staff' end,
            'message', l.message,
            'visit', ${visit(sql`l.source`, sql`l.utm_source`, sql`l.utm_medium`, sql`l.utm_campaign`, sql`l.landing_page`, sql`l.pages_viewed`)}) as data
          from leads l where l.id = ${leadId}`,
        sql`l.created_at`,
        sql`${RANK.created}::int`,
        sql`l.id::text`,
      )}
      union all
      ${branch(
        sql`select 'event:' || e.id::text, e.kind, e.created_at, ${eventRank}, e.actor_id, ${eventData}
          from lead_events e where e.lead_id = ${leadId}`,
        sql`e.created_at`,
        eventRank,
        sql`e.id::text`,
      )}
      union all
      ${branch(
        sql`select 'status:' || c.id::text, 'status', c.changed_at, ${RANK.status}::int, c.changed_by,
            jsonb_build_object('from_status', c.from_status, 'to_status', c.to_status)
          from lead_status_changes c where c.lead_id = ${leadId}
            and c.id is distinct from (select id from first_change where from_status is null)`,
        sql`c.changed_at`,
        sql`${RANK.status}::int`,
        sql`c.id::text`,
      )}
      union all
      ${branch(
        sql`select 'note:' || n.id::text, 'note', n.created_at, ${RANK.note}::int, n.author_id,
            jsonb_build_object('note', jsonb_build_object('id', n.id, 'lead_id', n.lead_id, 'body', n.body, 'author_id', n.author_id,
              'created_at', ${isoTimestamp(sql`n.created_at`)}, 'updated_at', ${isoTimestamp(sql`n.updated_at`)}))
          from lead_notes n where n.lead_id = ${leadId}`,
        sql`n.created_at`,
        sql`${RANK.note}::int`,
        sql`n.id::text`,
      )}
      union all
      -- A conversation shows as its newest message (the rest: getLeadThread).
      ${branch(
        emailOutSelect(leadId, sql`join threads t on t.head = 'email:' || m.id::text`),
        sql`m.created_at`,
        sql`${RANK.email_out}::int`,
        sql`m.id::text`,
      )}
      union all
      ${branch(
        emailInSelect(leadId, sql`join threads t on t.head = 'email_in:' || i.id::text`),
        sql`i.received_at`,
        sql`${RANK.email_in}::int`,
        sql`i.id::text`,
      )}
    )
    select x.id, x.kind, ${isoTimestamp(sql`x.at`)} as at, u.display_name as actor, u.email as actor_email, x.data
    from entries x left join users u on u.id = x.actor_id
    order by date_trunc('milliseconds', x.at) desc, x.at desc, x.rank desc, x.id desc
    limit ${limit}`,
    rowSchema,
    { prepared: `${PREPARED.leadTimeline}_${before ? 'b' : ''}${from ? 'f' : ''}` },
  );
}

/** How the caller names an email's subject (mail/messages.ts, as the outbox composes it). */
export type SubjectOf = (kind: EmailKind, data: unknown) => string;

function toEntry(row: Row, subjectOf: SubjectOf): TimelineEntry {
  const base = { id: row.id, at: row.at, actor: row.actor };
  if (row.kind === 'email_out') {
    const { email_data: data, ...email } = row.data;
    const kind = email.email_kind as EmailKind;
    const written = kind === 'lead-message' ? (data as { body?: unknown }).body : undefined;
    return {
      ...base,
      kind: 'email_out',
      ...email,
      subject: EMAIL_KINDS.includes(kind) ? subjectOf(kind, data) : `(${String(kind)})`,
      body: typeof written === 'string' ? written : null,
    } as TimelineEntry;
  }
  if (row.kind === 'note') {
    const note = row.data.note as Record<string, unknown>;
    return { ...base, kind: 'note', note: { ...note, author_email: row.actor_email, author_name: row.actor } } as TimelineEntry;
  }
  return { ...base, kind: row.kind, ...row.data } as TimelineEntry;
}

const MAX_SAME_INSTANT = 10_000;

/**
 * A page of a lead's timeline, newest first: `limit` entries older than `before` at most, and
 * whether there are older ones. A page never ends inside a group of entries with the same
 * `at`: the next page asks for entries older than its last `at`, so such a group would lose
 * its rest; the page stops before the group instead (or, if one group fills it, holds the
 * whole group). Undefined for an unknown lead.
 */
export async function getLeadTimeline(
  db: Db,
  leadId: string,
  { before, limit }: { before?: string; limit: number },
  subjectOf: SubjectOf,
): Promise<TimelineResponse | undefined> {
  // `at` shows milliseconds: compare with the same precision.
  const beforeMs = before === undefined ? undefined : new Date(before).toISOString();
  const rows = await selectEntries(db, leadId, { before: beforeMs, limit: limit + 1 });
  if (rows.length === 0) {
    const exists = await queryRows(db, sql`select 1 as found from leads where id = ${leadId}`, z.object({ found: z.number() }));
    return exists.length > 0 ? { entries: [], has_more: false } : undefined;
  }
  let page = rows;
  let hasMore = false;
  if (rows.length > limit) {
    hasMore = true;
    const last = rows[limit - 1]!.at;
    page = rows.slice(0, limit);
    if (rows[limit]!.at === last) {
      page = page.filter((r) => r.at !== last);
      if (page.length === 0) {
        page = await selectEntries(db, leadId, {
          before: new Date(Date.parse(last) + 1).toISOString(),
          from: last,
          limit: MAX_SAME_INSTANT,
        });
        hasMore = (await selectEntries(db, leadId, { before: last, limit: 1 })).length > 0;
      }
    }
  }
  return { entries: page.map((r) => toEntry(r, subjectOf)), has_more: hasMore };
}

/**
 * A page of one conversation on the lead's timeline, newest first: `limit` messages at most,
 * older than the message `before` (an entry id), and whether there are older ones. Undefined
 * when the thread holds no message of the lead's; 'no_such_message' when `before` is not one of
 * the thread's messages (it left the lead since the page was drawn).
 */
export async function getLeadThread(
  db: Db,
  leadId: string,
  threadId: string,
  { before, limit }: { before?: string; limit: number },
  subjectOf: SubjectOf,
): Promise<TimelineResponse | undefined | 'no_such_message'> {
  const inThread = (thread: SQL) => sql`join threads t on t.thread = ${threadId}::uuid and t.thread = ${thread}`;
  const rows = await queryRows(
    db,
    sql`
    with ${conversationCtes(leadId, threadId)}, entries as (
      ${emailOutSelect(leadId, inThread(sql`coalesce(m.thread_id, m.id)`))}
      union all
      ${emailInSelect(leadId, inThread(sql`coalesce(i.thread_id, i.id)`))}
    )
    select x.id, x.kind, ${isoTimestamp(sql`x.at`)} as at, u.display_name as actor, u.email as actor_email, x.data
    from entries x left join users u on u.id = x.actor_id
    ${before ? sql`where (x.at, x.rank, x.id) < (select c.at, c.rank, c.key from conversation c where c.key = ${before})` : sql``}
    order by x.at desc, x.rank desc, x.id desc
    limit ${limit + 1}`,
    rowSchema,
    { prepared: `${PREPARED.leadThread}_${before ? 'b' : ''}` },
  );
  if (rows.length === 0 && before === undefined) return undefined;
  if (rows.length === 0 && before !== undefined) {
    // Nothing older: the end of the thread, or a `before` no longer in it (merged away, erased).
    const [found] = await queryRows(
      db,
      sql`with ${conversationCtes(leadId, threadId)} select count(*)::int as n from conversation where key = ${before}`,
      z.object({ n: z.number() }),
    );
    if (!found?.n) return 'no_such_message';
  }
  return { entries: rows.slice(0, limit).map((r) => toEntry(r, subjectOf)), has_more: rows.length > limit };
}
