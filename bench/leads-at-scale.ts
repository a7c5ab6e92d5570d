/**
 * The Leads Manager and Overview at 100,000 leads: seeds them in SQL, then times the
 * dashboard's queries through HTTP against the built server (sequential requests on
 * loopback, so the time is the server's plus well under a millisecond of transport).
 */
import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../src/server/db/client.ts';
import { leadCountQuery, leadPageQuery } from '../src/server/db/queries/lead-list-queries.ts';
import { execute, queryRows } from '../src/server/db/sql.ts';

export const SCALE_LEADS = 100_000;

/**
 * A seeded lead's full_name, email, phone and property_types, from the integer `i` of the
 * select (a generate_series): believable, varied, and the same for the same `i`.
 */
export const SEED_PERSON = sql.raw(`
      (array['James','Maria','Robert','Linda','Michael','Patricia','David','Jennifer','Carlos','Aisha','Kevin','Priya','Thomas','Grace','Daniel','Sofia','Marcus','Emily','Andre','Hannah'])[1 + (i % 20)]
        || ' ' || (array['Carter','Nguyen','Patel','Johnson','Rivera','Kim','Thompson','Garcia','Brooks','Murphy','Okafor','Schmidt','Reyes','Coleman','Walsh','Martin','Lopez','Clark','Lewis','Young','Allen','King','Wright','Scott','Hill'])[1 + ((i * 7) % 25)],
      'lead' || i || '@' || (array['gmail.com','yahoo.com','outlook.com','invest.example','capital.example'])[1 + (i % 5)],
      '(' || (200 + (i % 800)) || ') 555-' || lpad(((i * 37) % 10000)::text, 4, '0'),
      array[(array['single-family','multifamily','commercial','land','other'])[1 + ((i / 3) % 5)]]`);

/** Three staff admins who own three leads in four (fixed ids, so the queries can name one). */
export const SCALE_OWNER_IDS = [
  '00000000-0000-4000-8000-00000000b001',
  '00000000-0000-4000-8000-00000000b002',
  '00000000-0000-4000-8000-00000000b003',
];

/**
 * Believable leads spread over two years, a quarter contacted with history, and appointments;
 * three in four owned by one of three admins, one in ten with a next step in the coming 60 days,
 * one in five with an estimated fee.
 */
export async function seedLeadsAtScale(db: Db, count = SCALE_LEADS): Promise<void> {
  await execute(
    db,
    sql`
    insert into users (id, email, display_name, password_hash)
    select id, 'staff' || n || '@bench.example', 'Staff ' || n, 'no sign-in' from unnest(${`{${SCALE_OWNER_IDS.join(',')}}`}::uuid[]) with ordinality as o(id, n)`,
  );
  await execute(
    db,
    sql`
    insert into leads (full_name, email, phone, property_types, status, message, created_at, owner_id, follow_up_on, estimated_fee_cents)
    select
      ${SEED_PERSON},
      (array['New','New','Contacted','Converted','Dropped'])[1 + ((i / 7) % 5)],
      case when i % 3 = 0 then 'Looking for underwriting on a deal.' end,
      now() - make_interval(mins => (i * 10.5)::int),
      -- By a hash of i, not i % 4: that would tie each owner to a few first names (i % 20),
      -- an artificial correlation that made sorting one owner's leads by name scan 10,000 rows.
      (${`{${SCALE_OWNER_IDS.join(',')}}`}::uuid[])[1 + abs(hashtext('owner' || i)) % 4],
      case when abs(hashtext('next' || i)) % 10 = 0 then current_date + abs(hashtext('on' || i)) % 60 end,
      -- One lead in five has an estimated fee, $1,500 to $6,400 (the Overview's and the board's forecast).
      case when abs(hashtext('fee' || i)) % 5 = 0 then (1500 + abs(hashtext('amount' || i)) % 50 * 100) * 100 end
    from generate_series(1, ${count}) as i`,
  );
  await execute(
    db,
    sql`
    insert into lead_status_changes (lead_id, from_status, to_status, changed_at)
    select id, 'New', 'Contacted', created_at + make_interval(mins => 30 + (abs(hashtext(id::text)) % 600))
    from leads where status <> 'New'`,
  );
  // At random times, so many overlap: allowed, as staff may (otherwise appointments_no_overlap refuses the seed).
  await execute(
    db,
    sql`
    insert into appointments (lead_id, date, time, type, overlap_allowed)
    select id, (now() + make_interval(days => (abs(hashtext(id::text)) % 60) - 30))::date,
           make_time(9 + abs(hashtext(email)) % 8, (abs(hashtext(phone)) % 2) * 30, 0),
           (array['Call','Zoom','On-site'])[1 + abs(hashtext(full_name || id::text)) % 3],
           true -- thousands of calls in 60 days overlap: allowed, as staff may (appointments_no_overlap)
    from leads where status in ('Contacted', 'Converted') and random() < 0.2`,
  );
  await execute(db, sql`analyze`);
}

/** A phone of the seed ("(410) 555-7770", five leads) as people type it. */
export const PHONE_SEARCHES = ['4105557770', '+1 410 555 7770', '555-7770'];

const PHONE_DIGITS_INDEX = 'leads_phone_digits_trgm_idx';

/**
 * Whether the planner answers each phone search (the list's page and its count) through the
 * phone's digits index, from EXPLAIN on the seeded database: a plan without it scans the table.
 */
export async function phoneSearchPlans(db: Db): Promise<{ search: string; statement: 'page' | 'count'; usesIndex: boolean }[]> {
  const results: { search: string; statement: 'page' | 'count'; usesIndex: boolean }[] = [];
  const line = z.object({ 'QUERY PLAN': z.string() });
  for (const search of PHONE_SEARCHES) {
    for (const [statement, query] of [
      ['page', leadPageQuery({ search }, 20)],
      ['count', leadCountQuery({ search })],
    ] as const) {
      const plan = (await queryRows(db, sql`explain ${query}`, line)).map((r) => r['QUERY PLAN']).join('\n');
      results.push({ search, statement, usesIndex: plan.includes(PHONE_DIGITS_INDEX) });
    }
  }
  return results;
}

export const SCALE_QUERIES: { name: string; path: string }[] = [
  { name: 'first page of the list', path: '/api/leads' },
  { name: 'search by name fragment', path: '/api/leads?search=garc' },
  { name: 'search by phone fragment', path: '/api/leads?search=555-12' },
  // Seeded lead 210 (and four others) has (410) 555-7770: by its digits, with the country code, and by the last seven.
  ...PHONE_SEARCHES.map((search) => ({
    name: `search by phone ${JSON.stringify(search)}`,
    path: `/api/leads?search=${encodeURIComponent(search)}`,
  })),
  { name: 'search + status + property type', path: '/api/leads?search=mar&status=New&property_type=multifamily' },
  { name: 'one owner, sorted by name', path: `/api/leads?owner=${SCALE_OWNER_IDS[0]}&sort=name` },
  {
    name: 'unassigned + created range + status, by name',
    path: '/api/leads?owner=none&created_from=2026-01-01&created_to=2026-06-30&status=New&sort=name',
  },
  { name: 'sorted by next step (nulls last)', path: '/api/leads?sort=next_step' },
  { name: 'sorted by next step, descending, page 10', path: '/api/leads?sort=next_step&dir=desc&page=10' },
  { name: 'sorted by status, descending', path: '/api/leads?sort=status&dir=desc' },
  { name: 'created range, oldest first', path: '/api/leads?created_from=2025-06-01&created_to=2025-12-31&dir=asc' },
  { name: 'overview stats', path: '/api/overview' },
];

export type QueryTiming = { name: string; p50Ms: number; p95Ms: number; failures: number };

export async function timeQueries(
  origin: string,
  cookie: string,
  samples = 60,
  warmup = 5,
  queries = SCALE_QUERIES,
): Promise<QueryTiming[]> {
  const results: QueryTiming[] = [];
  for (const q of queries) {
    const times: number[] = [];
    let failures = 0;
    for (let i = 0; i < warmup + samples; i++) {
      const started = performance.now();
      const res = await fetch(`${origin}${q.path}`, { headers: { cookie } });
      await res.arrayBuffer();
      const ms = performance.now() - started;
      if (res.status !== 200) failures++;
      if (i >= warmup) times.push(ms);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
    results.push({ name: q.name, p50Ms: at(0.5), p95Ms: at(0.95), failures });
  }
  return results;
}
