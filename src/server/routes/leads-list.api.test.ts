import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Lead, LeadListResponse } from '#shared/schemas/lead';
import { DATE_RANGE_MESSAGE, MAX_EXPORT_IDS, MAX_SELECTED_LEADS } from '#shared/schemas/lead';
import { execute } from '../db/sql.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

/** The Leads Manager's list beyond search and filters: sort, owner, created dates, bulk actions, export of a selection. */

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
let me: string;
let other: string;
beforeAll(() => {
  // The business clock the created-date filter counts days on.
  t = createTestApp(database, { BUSINESS_TIME_ZONE: 'America/New_York' });
});
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, appointments, notifications, rate_limits cascade`);
  me = (await ensureAdmin(database.db, 'staff@example.com', 'staff-password', 'owner', 'Stella Staff')).user.id;
  other = (await ensureAdmin(database.db, 'other@example.com', 'other-password', 'staff', 'Otto Other')).user.id;
  cookie = await signIn(t.json, 'staff@example.com', 'staff-password');
});

const api = async <T>(method: string, path: string, body?: unknown) => {
  const res = await t.json(method, path, body, { cookie });
  return { status: res.status, body: (await res.json()) as T };
};
type Seed = { name: string; status?: string; owner?: string | null; created?: string; follow_up_on?: string | null; id?: string };
/** Leads inserted directly, with the creation time, owner and next step a test needs. */
async function seed(...leads: Seed[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [i, l] of leads.entries()) {
    const id = l.id ?? crypto.randomUUID();
    await execute(
      database.db,
      sql`
      insert into leads (id, full_name, email, phone, property_types, status, owner_id, created_at, follow_up_on)
      values (${id}, ${l.name}, ${`lead${i}@example.com`}, '555', array['land'], ${l.status ?? 'New'}, ${l.owner ?? null}::uuid,
              ${l.created ?? new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString()}::timestamptz, ${l.follow_up_on ?? null}::date)`,
    );
    ids[l.name] = id;
  }
  return ids;
}
const names = async (query: string) => {
  const res = await api<LeadListResponse>('GET', `/api/leads${query}`);
  expect(res.status).toBe(200);
  return res.body.leads.map((l) => l.full_name);
};

describe('GET /api/leads: sort', () => {
  beforeEach(async () => {
    // Created in this order, one minute apart.
    await seed(
      { name: 'Carol', status: 'Dropped', follow_up_on: '2026-12-03' },
      { name: 'Alice', status: 'Contacted' },
      { name: 'Bob', status: 'New', follow_up_on: '2026-12-01' },
      { name: 'Dave', status: 'Contacted', follow_up_on: '2026-12-02' },
      { name: 'Erin', status: 'New' },
    );
  });

  it('is newest first by default, oldest first with dir=asc', async () => {
    expect(await names('')).toEqual(['Erin', 'Dave', 'Bob', 'Alice', 'Carol']);
    expect(await names('?sort=created&dir=desc')).toEqual(['Erin', 'Dave', 'Bob', 'Alice', 'Carol']);
    expect(await names('?sort=created&dir=asc')).toEqual(['Carol', 'Alice', 'Bob', 'Dave', 'Erin']);
  });

  it('sorts by name both ways (ascending unless told)', async () => {
    const asc = await names('?sort=name');
    expect(asc).toEqual(['Alice', 'Bob', 'Carol', 'Dave', 'Erin']);
    expect(await names('?sort=name&dir=desc')).toEqual([...asc].reverse());
  });

  it('sorts by status, newest first within a status; descending is the exact reverse', async () => {
    const asc = await names('?sort=status&dir=asc');
    expect(asc).toEqual(['Dave', 'Alice', 'Carol', 'Erin', 'Bob']);
    expect(await names('?sort=status&dir=desc')).toEqual([...asc].reverse());
  });

  it('sorts by next step, leads without one last in both directions', async () => {
    const asc = await names('?sort=next_step');
    expect(asc.slice(0, 3)).toEqual(['Bob', 'Dave', 'Carol']);
    expect(asc.slice(3).sort()).toEqual(['Alice', 'Erin']);
    const desc = await names('?sort=next_step&dir=desc');
    expect(desc.slice(0, 3)).toEqual(['Carol', 'Dave', 'Bob']);
    expect(desc.slice(3).sort()).toEqual(['Alice', 'Erin']);
  });

  it('pages every sort without repeating or skipping a lead', async () => {
    await seed(
      ...Array.from({ length: 25 }, (_, i) => ({
        name: 'Same Name',
        follow_up_on: i % 3 === 0 ? '2026-12-05' : null,
        created: '2026-02-01T00:00:00Z',
      })),
    );
    for (const sort of ['name', 'status', 'created', 'next_step']) {
      for (const dir of ['asc', 'desc']) {
        const pages = await Promise.all(
          [1, 2, 3, 4].map((page) => api<LeadListResponse>('GET', `/api/leads?sort=${sort}&dir=${dir}&page_size=8&page=${page}`)),
        );
        const ids = pages.flatMap((p) => p.body.leads.map((l) => l.id));
        expect(ids, `${sort} ${dir}`).toHaveLength(30);
        expect(new Set(ids).size, `${sort} ${dir}`).toBe(30);
      }
    }
  });

  it('orders equal values by id', async () => {
    const ids = await seed(
      { name: 'Twin', id: '00000000-0000-4000-8000-000000000002' },
      { name: 'Twin', id: '00000000-0000-4000-8000-000000000001' },
    );
    expect(ids).toBeDefined();
    const res = await api<LeadListResponse>('GET', '/api/leads?search=twin&sort=name&dir=asc');
    expect(res.body.leads.map((l) => l.id)).toEqual(['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002']);
    const desc = await api<LeadListResponse>('GET', '/api/leads?search=twin&sort=next_step&dir=desc');
    expect(desc.body.leads.map((l) => l.id)).toEqual(['00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001']);
  });

  it.each(['?sort=email', '?dir=up', '?sort=name&dir=ASC'])('rejects %s with 400', async (query) => {
    expect((await api('GET', `/api/leads${query}`)).status).toBe(400);
  });
});

describe('GET /api/leads: owner', () => {
  beforeEach(async () => {
    await seed({ name: 'Mine', owner: me }, { name: 'Theirs', owner: other }, { name: 'Nobody' });
  });

  it.each([
    ['', ['Nobody', 'Theirs', 'Mine']],
    ['?owner=me', ['Mine']],
    ['?owner=none', ['Nobody']],
    ['?owner=', ['Nobody', 'Theirs', 'Mine']],
  ])('owner %s', async (query, expected) => {
    expect(await names(query)).toEqual(expected);
  });

  it("filters by an admin id, and shows each owner's email", async () => {
    const res = await api<LeadListResponse>('GET', `/api/leads?owner=${other}`);
    expect(res.body.leads.map((l) => [l.full_name, l.owner_email])).toEqual([['Theirs', 'other@example.com']]);
    expect(res.body.total).toBe(1);
    expect(await names('?owner=00000000-0000-4000-8000-000000000009')).toEqual([]);
  });

  it('rejects an owner that is not me, none or an id', async () => {
    expect((await api('GET', '/api/leads?owner=someone')).status).toBe(400);
  });
});

describe('GET /api/leads: created dates in the business time zone', () => {
  beforeEach(async () => {
    // 2026-03-08 is the day New York moves to daylight time: it starts at 05:00 UTC (EST)
    // and ends at 04:00 UTC the next day (EDT).
    await seed(
      { name: 'Saturday night', created: '2026-03-08T04:59:59.999Z' },
      { name: 'Sunday first', created: '2026-03-08T05:00:00Z' },
      { name: 'Sunday last', created: '2026-03-09T03:59:59.999Z' },
      { name: 'Monday first', created: '2026-03-09T04:00:00Z' },
    );
  });

  it.each([
    ['?created_from=2026-03-08&created_to=2026-03-08', ['Sunday last', 'Sunday first']],
    ['?created_from=2026-03-08', ['Monday first', 'Sunday last', 'Sunday first']],
    ['?created_to=2026-03-08', ['Sunday last', 'Sunday first', 'Saturday night']],
    ['?created_from=2026-03-07&created_to=2026-03-07', ['Saturday night']],
    ['?created_from=2026-03-09&created_to=2026-03-09', ['Monday first']],
    ['?created_from=&created_to=', ['Monday first', 'Sunday last', 'Sunday first', 'Saturday night']],
  ])('%s', async (query, expected) => {
    const res = await api<LeadListResponse>('GET', `/api/leads${query}`);
    expect(res.body.leads.map((l) => l.full_name)).toEqual(expected);
    expect(res.body.total).toBe(expected.length);
  });

  it('refuses a range that starts after it ends, saying so', async () => {
    const res = await api<{ error: { message: string; fields: Record<string, string> } }>(
      'GET',
      '/api/leads?created_from=2026-03-09&created_to=2026-03-08',
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(DATE_RANGE_MESSAGE);
    expect(res.body.error.fields.created_to).toBe(DATE_RANGE_MESSAGE);
    expect((await t.app.request('/api/leads/export?created_from=2026-03-09&created_to=2026-03-08', { headers: { cookie } })).status).toBe(
      400,
    );
  });

  it.each(['?created_from=2026-02-30', '?created_to=yesterday', '?created_from=2026-3-8'])('rejects %s with 400', async (query) => {
    expect((await api('GET', `/api/leads${query}`)).status).toBe(400);
  });
});

type StatusRow = { lead_id: string; from_status: string | null; to_status: string; changed_by: string | null };
type EventRow = { lead_id: string; kind: string; actor_id: string | null; data: { from: string | null; to: string | null } };

describe('POST /api/leads/bulk', () => {
  let ids: Record<string, string>;
  beforeEach(async () => {
    ids = await seed(
      { name: 'A', status: 'New' },
      { name: 'B', status: 'Contacted', owner: other },
      { name: 'C', status: 'New', owner: me },
    );
  });
  const bulk = (body: unknown) => api<{ updated: number; error?: { fields?: Record<string, string> } }>('POST', '/api/leads/bulk', body);

  it('changes the status of the chosen leads, recording each change with the admin', async () => {
    const missing = crypto.randomUUID();
    const res = await bulk({ ids: [ids.A, ids.B, missing], action: 'status', status: 'Converted' });
    expect(res).toEqual({ status: 200, body: { updated: 2 } });
    const leads = (await api<LeadListResponse>('GET', '/api/leads')).body.leads;
    expect(Object.fromEntries(leads.map((l) => [l.full_name, [l.status, l.contacted]]))).toEqual({
      A: ['Converted', true],
      B: ['Converted', true],
      C: ['New', false],
    });
    const history = await rowsOf<StatusRow>(
      database.db,
      sql`select lead_id, from_status, to_status, changed_by from lead_status_changes order by from_status`,
    );
    expect(history).toEqual([
      { lead_id: ids.B, from_status: 'Contacted', to_status: 'Converted', changed_by: me },
      { lead_id: ids.A, from_status: 'New', to_status: 'Converted', changed_by: me },
    ]);
  });

  it('assigns the chosen leads to an admin, recording an owner event where the owner changed', async () => {
    const res = await bulk({ ids: [ids.A, ids.B, ids.C], action: 'assign', owner_id: me });
    expect(res).toEqual({ status: 200, body: { updated: 3 } });
    expect((await api<LeadListResponse>('GET', '/api/leads?owner=me')).body.total).toBe(3);
    const events = await rowsOf<EventRow>(
      database.db,
      sql`select lead_id, kind, actor_id, data from lead_events order by data->>'from' nulls first`,
    );
    expect(events).toEqual([
      { lead_id: ids.A, kind: 'owner', actor_id: me, data: { from: null, to: 'Stella Staff' } },
      { lead_id: ids.B, kind: 'owner', actor_id: me, data: { from: 'Otto Other', to: 'Stella Staff' } },
    ]);
  });

  it('unassigns the chosen leads', async () => {
    expect((await bulk({ ids: [ids.B, ids.C], action: 'assign', owner_id: null })).body.updated).toBe(2);
    expect((await api<LeadListResponse>('GET', '/api/leads?owner=none')).body.total).toBe(3);
    const events = await rowsOf<EventRow>(database.db, sql`select lead_id, kind, actor_id, data from lead_events order by data->>'from'`);
    expect(events.map((e) => e.data)).toEqual([
      { from: 'Otto Other', to: null },
      { from: 'Stella Staff', to: null },
    ]);
  });

  it('refuses an owner who is not an admin, changing nothing', async () => {
    const res = await bulk({ ids: [ids.A], action: 'assign', owner_id: crypto.randomUUID() });
    expect(res.status).toBe(400);
    expect(res.body.error?.fields?.owner_id).toBe('No such admin');
    expect((await api<LeadListResponse>('GET', '/api/leads?owner=none')).body.total).toBe(1);
  });

  it('deletes the chosen leads', async () => {
    expect((await bulk({ ids: [ids.A, ids.C, crypto.randomUUID()], action: 'delete' })).body.updated).toBe(2);
    expect(await names('')).toEqual(['B']);
  });

  it.each([
    ['no ids', { ids: [], action: 'delete' }],
    ['too many ids', { ids: Array.from({ length: MAX_SELECTED_LEADS + 1 }, () => crypto.randomUUID()), action: 'delete' }],
    ['a bad id', { ids: ['nope'], action: 'delete' }],
    ['an unknown action', { ids: [crypto.randomUUID()], action: 'archive' }],
    ['a bad status', { ids: [crypto.randomUUID()], action: 'status', status: 'Lost' }],
    ['no owner', { ids: [crypto.randomUUID()], action: 'assign' }],
  ])('rejects %s with 400', async (_, body) => {
    expect((await bulk(body)).status).toBe(400);
  });

  it('needs a session', async () => {
    expect((await t.json('POST', '/api/leads/bulk', { ids: [ids.A], action: 'delete' })).status).toBe(401);
    expect(await names('')).toHaveLength(3);
  });
});

describe('GET /api/leads/export', () => {
  const csv = async (query: string) => {
    const res = await t.app.request(`/api/leads/export${query}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    return (await res.text()).trim().split('\r\n');
  };

  it('exports only the leads in ids, in the sort asked, with owner, deal and next step columns', async () => {
    const ids = await seed({ name: 'Zed', owner: me }, { name: 'Amy' }, { name: 'Left Out' });
    await api<Lead>('PATCH', `/api/leads/${ids.Zed}`, {
      property_address: '12 Main St, Frederick, MD',
      target_closing_date: '2027-01-15',
      estimated_fee_cents: 150_050,
      follow_up_on: '2026-12-01',
      follow_up_note: 'Send the survey',
    });
    const lines = await csv(`?ids=${ids.Zed},${ids.Amy}&sort=name&dir=asc`);
    expect(lines[0]).toBe(
      '"Name","Email","Phone","Property Type","Status","Contacted","Date Added","Message","Owner","Property Address","Target Closing Date","Estimated Fee","Next Step"',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^"Amy",.*,"","","","","",""$/);
    // The owner by name, as the list shows them.
    expect(lines[2]).toMatch(/^"Zed",.*,"Stella Staff","12 Main St, Frederick, MD","2027-01-15","1500.50","2026-12-01 Send the survey"$/);
  });

  it('combines ids with the filters', async () => {
    const ids = await seed({ name: 'Mine', owner: me }, { name: 'Not mine' });
    expect(await csv(`?ids=${ids.Mine},${ids['Not mine']}&owner=me`)).toHaveLength(2);
  });

  it.each([`?ids=nope`, `?ids=${Array.from({ length: MAX_EXPORT_IDS + 1 }, () => crypto.randomUUID()).join(',')}`])(
    'rejects bad ids with 400',
    async (query) => {
      expect((await t.app.request(`/api/leads/export${query}`, { headers: { cookie } })).status).toBe(400);
    },
  );
});
