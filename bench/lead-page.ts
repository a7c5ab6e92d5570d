/**
 * `lead-page`: the lead page's two reads at 100,000 leads: GET /api/leads/{id} and
 * GET /api/leads/{id}/timeline for one lead whose timeline holds 200 entries (notes, status
 * changes, appointment, owner and next-step events, inquiries, emails to the lead), with
 * every other lead carrying its own history, notes and mail around it. Seeded in SQL, then
 * timed through HTTP against the built server (sequential requests on loopback).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../src/server/db/client.ts';
import { execute, queryRows } from '../src/server/db/sql.ts';
import * as z from 'zod';
import { seedLeadsAtScale, timeQueries, type QueryTiming } from './leads-at-scale.ts';

/** Entries of the benchmarked lead's timeline, its creation included (the API's default page). */
export const TIMELINE_ENTRIES = 200;
const MIX = { notes: 60, statuses: 40, events: 59, emails: 40 } as const; // + created = 200
const TIME_ZONE = 'America/New_York';

/** Five admins to act; the server adds ADMIN_EMAIL at start-up. */
async function seedAdmins(db: Db): Promise<void> {
  await execute(
    db,
    sql`
    insert into users (email, display_name, password_hash)
    select 'bench-staff-' || i || '@example.com', 'Bench Staff ' || i, 'not-a-hash' from generate_series(1, 5) i
    on conflict (email) do nothing`,
  );
}

/** Around the benchmarked lead: every lead's acknowledgement, a note on every third, owners on half. */
async function seedBackground(db: Db): Promise<void> {
  await execute(
    db,
    sql`
    update leads l set owner_id = (select id from users order by email offset (abs(hashtext(l.id::text)) % 5) limit 1)
    where abs(hashtext(l.email)) % 2 = 0`,
  );
  await execute(
    db,
    sql`
    insert into emails (message_id, status, kind, to_address, to_name, data, lead_id, created_at, sent_at)
    select '<' || l.id || '@bench.example.com>', 'sent', 'lead-acknowledgement', l.email, l.full_name,
      jsonb_build_object('lead_id', l.id, 'full_name', l.full_name, 'email', l.email, 'phone', l.phone, 'property_types', to_jsonb(l.property_types),
        'message', l.message, 'source', null, 'utm_source', null, 'utm_medium', null, 'utm_campaign', null, 'landing_page', null),
      l.id, l.created_at, l.created_at + interval '5 seconds'
    from leads l`,
  );
  await execute(
    db,
    sql`
    insert into lead_notes (lead_id, author_id, body, created_at, updated_at)
    select l.id, (select id from users order by email limit 1), 'Left a voicemail; will try again on Monday.', l.created_at + interval '1 day', l.created_at + interval '1 day'
    from leads l where abs(hashtext(l.id::text)) % 3 = 0`,
  );
}

/**
 * The lead with TIMELINE_ENTRIES entries over the last year, its kinds interleaved in time.
 * Returns its id.
 */
async function seedTimelineLead(db: Db): Promise<string> {
  const [lead] = await queryRows(
    db,
    sql`
    insert into leads (full_name, email, phone, property_types, status, message, submission_id, source, utm_source, utm_medium, utm_campaign,
                       landing_page, pages_viewed, owner_id, property_address, follow_up_on, follow_up_note, created_at)
    values ('Jane Timeline', 'jane.timeline@example.com', '(301) 555-0142', array['multifamily'], 'New',
      'A 24-unit building in Frederick: we need the zoning and the title checked before the 30th.', gen_random_uuid(),
      'linkedin.com', 'linkedin', 'social', 'fall', '/services', 4, (select id from users order by email limit 1),
      '12 Market St, Frederick, MD', (now() at time zone ${TIME_ZONE})::date + 3, 'send the zoning report', now() - interval '365 days')
    returning id`,
    z.object({ id: z.uuid() }),
  );
  const id = lead!.id;
  // Entry n of each kind at a distinct minute of the year, so the kinds interleave.
  const at = (offset: number, count: number) =>
    sql`now() - interval '365 days' + make_interval(mins => (i * 525000 / ${count}::int) + ${offset}::int)`;
  const admin = sql`(select id from users order by email offset (i % 5) limit 1)`;
  await execute(
    db,
    sql`
    insert into lead_status_changes (lead_id, from_status, to_status, changed_by, changed_at)
    values (${id}, null, 'New', null, now() - interval '365 days')`,
  );
  await execute(
    db,
    sql`
    insert into lead_status_changes (lead_id, from_status, to_status, changed_by, changed_at)
    select ${id}, case when i % 2 = 1 then 'New' else 'Contacted' end, case when i % 2 = 1 then 'Contacted' else 'New' end, ${admin}, ${at(1, MIX.statuses)}
    from generate_series(1, ${MIX.statuses}) i`,
  );
  await execute(
    db,
    sql`
    insert into lead_notes (lead_id, author_id, body, created_at, updated_at)
    select ${id}, ${admin}, 'Call ' || i || E':\nShe asked about the survey and the HOA documents.\nNext: send the title report.', ${at(2, MIX.notes)}, ${at(2, MIX.notes)}
    from generate_series(1, ${MIX.notes}) i`,
  );
  await execute(
    db,
    sql`
    insert into lead_events (lead_id, kind, actor_id, data, created_at)
    select ${id}, k.kind, case when k.kind = 'inquiry' then null else ${admin} end,
      case k.kind
        when 'appointment' then jsonb_build_object('action', (array['scheduled','moved','cancelled','completed'])[1 + i % 4], 'appointment_id', gen_random_uuid(),
          'type', 'Zoom', 'date', '2030-01-01', 'time', '10:00', 'from_date', null, 'from_time', null, 'by', 'staff')
        when 'owner' then jsonb_build_object('from', 'bench-staff-1@example.com', 'to', 'bench-staff-2@example.com')
        when 'follow_up' then jsonb_build_object('on', '2030-01-01', 'note', 'send the zoning report')
        else jsonb_build_object('message', 'Writing again about the same building.', 'full_name', 'Jane Timeline', 'phone', '(301) 555-0142',
          'source', 'google.com', 'landing_page', '/', 'pages_viewed', 2)
      end, ${at(3, MIX.events)}
    from generate_series(1, ${MIX.events}) i,
      lateral (select (array['appointment','appointment','owner','follow_up','inquiry'])[1 + i % 5] as kind) k`,
  );
  await execute(
    db,
    sql`
    insert into emails (message_id, status, kind, to_address, to_name, data, lead_id, created_at, sent_at)
    select '<' || gen_random_uuid() || '@bench.example.com>', 'sent', case when i % 2 = 0 then 'appointment' else 'lead-acknowledgement' end,
      'jane.timeline@example.com', 'Jane Timeline',
      case when i % 2 = 0 then jsonb_build_object('appointment_id', gen_random_uuid(), 'change', 'scheduled', 'audience', 'lead', 'type', 'Zoom',
          'date', '2030-01-01', 'time', '10:00', 'time_zone', ${TIME_ZONE}::text, 'starts_at', '2030-01-01T15:00:00.000Z', 'sequence', 0, 'notes', null,
          'lead_id', ${id}::uuid, 'lead_name', 'Jane Timeline', 'lead_email', 'jane.timeline@example.com', 'lead_phone', '(301) 555-0142')
        else jsonb_build_object('lead_id', ${id}::uuid, 'full_name', 'Jane Timeline', 'email', 'jane.timeline@example.com', 'phone', '(301) 555-0142',
          'property_types', jsonb_build_array('multifamily'), 'message', null, 'source', null, 'utm_source', null, 'utm_medium', null, 'utm_campaign', null, 'landing_page', null)
      end,
      ${id}, ${at(4, MIX.emails)}, ${at(4, MIX.emails)}
    from generate_series(1, ${MIX.emails}) i`,
  );
  return id;
}

/** Messages of the conversation lead: half written to them from their page, half their replies (a fifth with a file). */
export const CONVERSATION_MESSAGES = 500;

/** Messages (ours and theirs) per thread of the long conversation. */
export const THREAD_MESSAGES = 100;

/**
 * A lead with a long conversation: CONVERSATION_MESSAGES messages over the last year, each
 * reply answering the message before it, in threads of THREAD_MESSAGES (as the reader and
 * Reply file them), their texts a few paragraphs long, some unread.
 */
async function seedConversationLead(db: Db): Promise<string> {
  const [lead] = await queryRows(
    db,
    sql`
    insert into leads (full_name, email, phone, property_types, status, owner_id, reply_token, created_at)
    values ('Mia Messages', 'mia.messages@example.com', '(301) 555-0177', array['commercial'], 'Contacted',
      (select id from users order by email limit 1), 'miamessage', now() - interval '366 days')
    returning id`,
    z.object({ id: z.uuid() }),
  );
  const id = lead!.id;
  const half = CONVERSATION_MESSAGES / 2;
  const at = (offset: number) => sql`now() - interval '365 days' + make_interval(mins => (i * 525000 / ${half}::int) + ${offset}::int)`;
  await execute(
    db,
    sql`
    insert into emails (message_id, status, kind, to_address, to_name, data, lead_id, sent_by, created_at, sent_at)
    select '<conv-' || i || '@bench.example.com>', 'sent', 'lead-message', 'mia.messages@example.com', 'Mia Messages',
      jsonb_build_object('subject', 'Your review, part ' || i, 'body', repeat('We looked at the title and the survey again. ', 20),
        'writer', 'Bench Staff 1', 'signature', '', 'reply_to', 'replies+miamessage@keystone.test'),
      ${id}, (select id from users order by email limit 1), ${at(0)}, ${at(0)}
    from generate_series(1, ${half}) i`,
  );
  // Each thread: the first message of ours in its block, and everything after it up to the next.
  const pairs = THREAD_MESSAGES / 2;
  await execute(
    db,
    sql`
    update emails e set thread_id = first.id
    from emails first
    where e.lead_id = ${id} and first.lead_id = ${id} and e.id <> first.id
      and first.message_id = '<conv-' || ((substring(e.message_id from '<conv-([0-9]+)@')::int - 1) / ${pairs}::int * ${pairs}::int + 1) || '@bench.example.com>'`,
  );
  await execute(
    db,
    sql`
    insert into inbound_emails (mailbox, uidvalidity, uid, message_id, in_reply_to, from_address, from_name, to_addresses, subject, sent_at,
      received_at, body, lead_id, matched_by, answers_email_id, read_at, thread_id)
    select 'bench', 1, i, '<reply-' || i || '@example.com>', '<conv-' || i || '@bench.example.com>', 'mia.messages@example.com', 'Mia Messages',
      'replies+miamessage@keystone.test', 'Re: Your review, part ' || i, ${at(30)}, ${at(30)},
      repeat('Thank you. The seller sent the disclosures; see the attached file and my notes below. ', 30), ${id}, 'thread',
      (select e.id from emails e where e.message_id = '<conv-' || i || '@bench.example.com>'), case when i > ${half - 5} then null else ${at(60)} end,
      (select coalesce(e.thread_id, e.id) from emails e where e.message_id = '<conv-' || i || '@bench.example.com>')
    from generate_series(1, ${half}) i`,
  );
  await execute(
    db,
    sql`
    insert into inbound_attachments (email_id, filename, content_type, size, content)
    select i.id, 'disclosures-' || i.uid || '.pdf', 'application/pdf', 20000, convert_to(repeat('x', 20000), 'UTF8')
    from inbound_emails i where i.lead_id = ${id} and i.uid % 5 = 0`,
  );
  return id;
}

/** SCALE_LEADS leads with their background, then the lead with the long timeline and the one with the long conversation; their ids. */
export async function seedLeadPage(db: Db): Promise<{ timeline: string; conversation: string }> {
  await seedAdmins(db);
  await seedLeadsAtScale(db);
  await seedBackground(db);
  const timeline = await seedTimelineLead(db);
  const conversation = await seedConversationLead(db);
  await execute(db, sql`analyze`);
  return { timeline, conversation };
}

const timelineAnswer = z.object({ entries: z.array(z.object({ kind: z.string() })), has_more: z.boolean() });

/** Checks the timeline is whole (TIMELINE_ENTRIES entries, every kind seeded), then times both reads. */
export async function timeLeadPage(
  origin: string,
  cookie: string,
  ids: { timeline: string; conversation: string },
  samples = 300,
): Promise<{ timings: QueryTiming[]; kinds: Record<string, number> }> {
  const leadId = ids.timeline;
  const res = await fetch(`${origin}/api/leads/${leadId}/timeline`, { headers: { cookie } });
  if (res.status !== 200) throw new Error(`the timeline answered ${res.status}: ${await res.text()}`);
  const { entries, has_more } = timelineAnswer.parse(await res.json());
  if (entries.length !== TIMELINE_ENTRIES || has_more)
    throw new Error(`the timeline has ${entries.length} entries (has_more ${has_more}), not ${TIMELINE_ENTRIES}`);
  const kinds: Record<string, number> = {};
  for (const e of entries) kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
  // The long conversation: CONVERSATION_MESSAGES / THREAD_MESSAGES threads, each shown once.
  const conv = await fetch(`${origin}/api/leads/${ids.conversation}/timeline?limit=50`, { headers: { cookie } });
  const heads = z
    .object({ entries: z.array(z.object({ kind: z.string(), thread_id: z.string().optional(), thread_size: z.number().optional() })) })
    .parse(await conv.json())
    .entries.filter((e) => e.thread_id !== undefined);
  if (heads.length !== CONVERSATION_MESSAGES / THREAD_MESSAGES || heads.some((e) => e.thread_size !== THREAD_MESSAGES))
    throw new Error(`the conversation shows as ${heads.map((e) => e.thread_size).join(', ')}, not threads of ${THREAD_MESSAGES}`);
  const thread = heads[0]!.thread_id!;
  const timings = await timeQueries(origin, cookie, samples, 20, [
    { name: 'GET /api/leads/{id}', path: `/api/leads/${leadId}` },
    { name: `GET /api/leads/{id}/timeline (${TIMELINE_ENTRIES} entries)`, path: `/api/leads/${leadId}/timeline` },
    { name: `GET /api/leads/{id} (${CONVERSATION_MESSAGES} messages)`, path: `/api/leads/${ids.conversation}` },
    {
      name: `GET /api/leads/{id}/timeline (${CONVERSATION_MESSAGES} messages, the page's first 50)`,
      path: `/api/leads/${ids.conversation}/timeline?limit=50`,
    },
    {
      name: `GET /api/leads/{id}/threads/{thread} (${THREAD_MESSAGES} messages in the thread, the first 50)`,
      path: `/api/leads/${ids.conversation}/threads/${thread}?limit=50`,
    },
  ]);
  return { timings, kinds };
}
