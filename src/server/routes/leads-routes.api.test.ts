import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Lead, LeadDetail, LeadListResponse } from '#shared/schemas/lead';
import { execute } from '../db/sql.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import { createTestApp, signIn, validLead as validPublicLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
beforeAll(async () => {
  t = createTestApp(database);
});
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, appointments, notifications, rate_limits cascade`);
  await ensureAdmin(database.db, 'staff@example.com', 'staff-password', 'owner', 'Stella Staff');
  cookie = await signIn(t.json, 'staff@example.com', 'staff-password');
});

const api = async <T>(method: string, path: string, body?: unknown) => {
  const res = await t.json(method, path, body, { cookie });
  return { status: res.status, body: (await res.json()) as T };
};
const add = async (fields: Partial<Record<string, unknown>> = {}) =>
  (
    await api<Lead>('POST', '/api/leads', {
      full_name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '(301) 555-0101',
      property_types: ['single-family'],
      message: 'Duplex',
      ...fields,
    })
  ).body;
const list = async (query = '') => (await api<LeadListResponse>('GET', `/api/leads${query}`)).body;

describe('POST /api/leads', () => {
  it('creates a New lead and returns it, with a notification and a history entry by this admin', async () => {
    const res = await api<Lead>('POST', '/api/leads', {
      full_name: ' Grace Hopper ',
      email: 'GRACE@example.com',
      phone: '555',
      property_types: ['land'],
      message: '',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      full_name: 'Grace Hopper',
      email: 'grace@example.com',
      status: 'New',
      contacted: false,
      message: null,
      property_types: ['land'],
    });
    const detail = (await api<LeadDetail>('GET', `/api/leads/${res.body.id}`)).body;
    expect(detail.status_history).toEqual([
      { from_status: null, to_status: 'New', changed_by: 'Stella Staff', changed_at: expect.any(String) },
    ]);
  });

  it('ignores a status sent by the client', async () => {
    expect((await add({ status: 'Converted' })).status).toBe('New');
  });

  it("rejects bad input with the product's validation messages", async () => {
    const res = await api<{ error: { fields: Record<string, string> } }>('POST', '/api/leads', {
      full_name: '',
      email: 'x',
      phone: '',
      property_types: [],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toMatchObject({
      full_name: 'Name is required',
      email: 'Invalid email address',
      phone: 'Phone number is required',
      property_types: 'Property type is required',
    });
  });
});

describe('GET /api/leads', () => {
  beforeEach(async () => {
    await add({ full_name: 'Maria Garcia', email: 'maria@acme.test', phone: '(240) 555-1234', property_types: ['multifamily'] });
    await add({ full_name: 'Mark Twain', email: 'twain@river.test', phone: '301-555-9876', property_types: ['land'] });
    await add({ full_name: 'Zoe Park', email: 'zoe@MARKET.test', phone: '4105550000', property_types: ['multifamily'] });
    const [zoe] = (await list('?search=zoe')).leads;
    await api('PATCH', `/api/leads/${zoe!.id}`, { status: 'Converted' });
  });

  it('lists newest first with a total', async () => {
    const page = await list();
    expect(page.total).toBe(3);
    expect(page.leads.map((l) => l.full_name)).toEqual(['Zoe Park', 'Mark Twain', 'Maria Garcia']);
  });

  it.each([
    ['?search=mar', ['Zoe Park', 'Mark Twain', 'Maria Garcia']], // zoe@MARKET, Mark, Maria
    ['?search=MARIA', ['Maria Garcia']],
    ['?search=river.TEST', ['Mark Twain']],
    ['?search=555-98', ['Mark Twain']],
    ['?search=(240)', ['Maria Garcia']],
    ['?search=5550000', ['Zoe Park']],
    ['?search=%25', []], // a literal %, not a wildcard
    ['?status=Converted', ['Zoe Park']],
    ['?status=New', ['Mark Twain', 'Maria Garcia']],
    ['?property_type=multifamily', ['Zoe Park', 'Maria Garcia']],
    ['?search=mar&status=New', ['Mark Twain', 'Maria Garcia']],
    ['?search=mar&property_type=multifamily', ['Zoe Park', 'Maria Garcia']],
    ['?search=mar&status=New&property_type=multifamily', ['Maria Garcia']],
    ['?search=nobody', []],
    ['?status=&property_type=&search=', ['Zoe Park', 'Mark Twain', 'Maria Garcia']],
  ])('filters %s', async (query, names) => {
    const page = await list(query);
    expect(page.leads.map((l) => l.full_name)).toEqual(names);
    expect(page.total).toBe(names.length);
  });

  it('pages with the total of all matches', async () => {
    const first = await list('?page_size=2&page=1');
    const second = await list('?page_size=2&page=2');
    expect(first.total).toBe(3);
    expect(first.leads.map((l) => l.full_name)).toEqual(['Zoe Park', 'Mark Twain']);
    expect(second.leads.map((l) => l.full_name)).toEqual(['Maria Garcia']);
  });

  describe('phone search by digits', () => {
    beforeEach(async () => {
      await add({ full_name: 'Pat Digits', email: 'pat@digits.test', phone: '(410) 555-0142', property_types: ['land'] });
      await add({ full_name: 'Quinn Country', email: 'quinn@digits.test', phone: '+1 (443) 555-0188', property_types: ['land'] });
    });

    it.each([
      ['410-555-0142', ['Pat Digits']],
      ['4105550142', ['Pat Digits']],
      ['+1 410 555 0142', ['Pat Digits']],
      ['1-410-555-0142', ['Pat Digits']],
      ['555-0142', ['Pat Digits']],
      ['410.555.0142', ['Pat Digits']],
      ['4435550188', ['Quinn Country']], // stored with its +1
      ['+1 443 555 0188', ['Quinn Country']],
    ])('finds (410) 555-0142 and +1 (443) 555-0188 from %s', async (search, names) => {
      const page = await list(`?search=${encodeURIComponent(search)}`);
      expect(page.leads.map((l) => l.full_name)).toEqual(names);
      expect(page.total).toBe(names.length);
    });

    it.each(['55', '555', '+1', '-', '  (  ) ', 'digits5'])('does not match everyone by digits for %j', async (search) => {
      const page = await list(`?search=${encodeURIComponent(search)}`);
      // "555" is in every phone as typed, so it still matches them all as a plain substring.
      const asTyped = (await list()).leads.filter(
        (l) => l.phone.includes(search.trim()) || l.full_name.toLowerCase().includes(search.trim()) || l.email.includes(search.trim()),
      );
      expect(page.leads.map((l) => l.full_name)).toEqual(asTyped.map((l) => l.full_name));
    });

    it('matches an email with digits in it by the email only, not by phone digits', async () => {
      await add({ full_name: 'Numbered Mail', email: 'lead5550142@mail.test', phone: '(202) 555-0199', property_types: ['land'] });
      expect((await list('?search=lead5550142')).leads.map((l) => l.full_name)).toEqual(['Numbered Mail']);
    });
  });

  it.each(['?search=a%00b', '?status=Lost', '?property_type=castle', '?page=0', '?page_size=1000', `?search=${'x'.repeat(201)}`])(
    'rejects %s with 400',
    async (query) => {
      expect((await api('GET', `/api/leads${query}`)).status).toBe(400);
    },
  );
});

describe('PATCH /api/leads/{id}', () => {
  it('changes only the fields sent', async () => {
    const lead = await add();
    const res = await api<Lead>('PATCH', `/api/leads/${lead.id}`, { phone: '999' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...lead, phone: '999', updated_at: expect.any(String) });
  });

  it('keeps both of two concurrent edits of different fields', async () => {
    const lead = await add();
    await Promise.all([
      api('PATCH', `/api/leads/${lead.id}`, { phone: '111' }),
      api('PATCH', `/api/leads/${lead.id}`, { message: 'Second edit' }),
    ]);
    const after = (await api<LeadDetail>('GET', `/api/leads/${lead.id}`)).body;
    expect(after).toMatchObject({ phone: '111', message: 'Second edit', full_name: lead.full_name });
  });

  it('moves a New lead marked contacted to Contacted, and records who and when', async () => {
    const lead = await add();
    expect((await api<Lead>('PATCH', `/api/leads/${lead.id}`, { contacted: true })).body).toMatchObject({
      contacted: true,
      status: 'Contacted',
    });
    expect((await api<Lead>('PATCH', `/api/leads/${lead.id}`, { status: 'Converted' })).body.status).toBe('Converted');
    expect((await api<Lead>('PATCH', `/api/leads/${lead.id}`, { contacted: true })).body.status).toBe('Converted');
    const history = (await api<LeadDetail>('GET', `/api/leads/${lead.id}`)).body.status_history;
    expect(history.map((h) => [h.from_status, h.to_status, h.changed_by])).toEqual([
      [null, 'New', 'Stella Staff'],
      ['New', 'Contacted', 'Stella Staff'],
      ['Contacted', 'Converted', 'Stella Staff'],
    ]);
  });

  it('answers 404 for a missing lead and 400 for bad input', async () => {
    const lead = await add();
    expect((await api('PATCH', '/api/leads/00000000-0000-4000-8000-000000000000', { phone: '1' })).status).toBe(404);
    expect((await api('PATCH', `/api/leads/${lead.id}`, { status: 'Lost' })).status).toBe(400);
    expect((await api('PATCH', `/api/leads/${lead.id}`, { email: 'nope' })).status).toBe(400);
    expect((await api('PATCH', `/api/leads/${lead.id}`, {})).status).toBe(400);
    expect((await api('PATCH', '/api/leads/not-a-uuid', { phone: '1' })).status).toBe(400);
  });
});

describe('DELETE /api/leads/{id}', () => {
  it('deletes the lead and keeps its appointments without a lead', async () => {
    const lead = await add();
    await execute(
      database.db,
      sql`insert into appointments (lead_id, date, time, type) values (${lead.id}, '2030-01-01', '10:00', 'Call')`,
    );
    expect((await api('DELETE', `/api/leads/${lead.id}`)).status).toBe(200);
    expect((await api('GET', `/api/leads/${lead.id}`)).status).toBe(404);
    expect((await api('DELETE', `/api/leads/${lead.id}`)).status).toBe(404);
    const rows = await database.db.execute(sql`select lead_id from appointments`);
    expect((rows as unknown as { rows: unknown[] }).rows).toEqual([{ lead_id: null }]);
  });
});

describe('GET /api/leads/export', () => {
  it('downloads the filtered leads as CSV with formula cells escaped', async () => {
    await add({ full_name: '=HYPERLINK("http://evil")', email: 'evil@example.com' });
    await add({ full_name: 'Plain Person', email: 'plain@example.com', property_types: ['land'] });
    const res = await t.app.request('/api/leads/export?property_type=single-family', { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="leads-\d{4}-\d\d-\d\d\.csv"$/);
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      '"Name","Email","Phone","Property Type","Status","Contacted","Date Added","Message","Owner","Property Address","Target Closing Date","Estimated Fee","Next Step"',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^"'=HYPERLINK\(""http:\/\/evil""\)","evil@example.com","'\(301\)|^"'=HYPERLINK/);
    // The property type by its label, as the list and the lead page show it.
    expect(lines[1]).toContain('"Single family","New","No"');
  });

  it('exports script and formula payloads as inert, quoted text cells', async () => {
    await add({
      full_name: '<script>window.__xss=1</script>',
      phone: '+1 301 555 0100',
      message: '@SUM(1+1)\n<img src=x onerror=window.__xss=1>',
    });
    await add({ full_name: '-2+3', email: 'minus@example.com', phone: '=1+1', message: 'javascript:window.__xss=1, "quoted"' });
    const text = await (await t.app.request('/api/leads/export', { headers: { cookie } })).text();
    const rows = parseCsv(text).slice(1);
    const cells = rows.map(([name, email, phone, , , , , message]) => ({ name, email, phone, message }));
    expect(cells).toEqual(
      expect.arrayContaining([
        {
          name: '<script>window.__xss=1</script>',
          email: 'ada@example.com',
          phone: "'+1 301 555 0100",
          message: "'@SUM(1+1)\n<img src=x onerror=window.__xss=1>",
        },
        { name: "'-2+3", email: 'minus@example.com', phone: "'=1+1", message: 'javascript:window.__xss=1, "quoted"' },
      ]),
    );
    // No cell a spreadsheet would evaluate.
    expect(rows.flat().filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
  });
});

/** RFC 4180: quoted cells, "" for a quote, line breaks allowed inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && ch === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && ch === '\r' && text[i + 1] === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
      i++;
    } else {
      cell += ch;
    }
  }
  return rows;
}

describe('the workspace fields of PATCH /api/leads/{id}', () => {
  it('derives Contacted from the status both ways, and refuses a contradiction', async () => {
    const lead = await add();
    expect((await api<Lead>('PATCH', `/api/leads/${lead.id}`, { status: 'Converted' })).body).toMatchObject({
      status: 'Converted',
      contacted: true,
    });
    // Marked not contacted: back to New (the one status that means it).
    expect((await api<Lead>('PATCH', `/api/leads/${lead.id}`, { contacted: false })).body).toMatchObject({
      status: 'New',
      contacted: false,
    });
    const refused = await api<{ error: { fields: Record<string, string> } }>('PATCH', `/api/leads/${lead.id}`, {
      status: 'Converted',
      contacted: false,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields.contacted).toBe('Contacted must be Yes unless the status is New');
  });

  it('keeps the customer’s own message: a public lead’s message cannot be changed', async () => {
    const { json } = t;
    await json('POST', '/api/public/leads', { ...validPublicLead(), message: 'My words' });
    const [lead] = (await list()).leads;
    expect(lead).toMatchObject({ from_form: true, message: 'My words' });
    const refused = await api<{ error: { message: string } }>('PATCH', `/api/leads/${lead!.id}`, { message: 'Overwritten', phone: '1' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('The customer’s message cannot be changed: add a note instead.');
    expect((await list()).leads[0]).toMatchObject({ message: 'My words', phone: lead!.phone });
    // Sending it unchanged (the Edit form does) is fine.
    expect((await api<Lead>('PATCH', `/api/leads/${lead!.id}`, { message: 'My words', phone: '2' })).body.phone).toBe('2');
  });

  it('sets the owner, deal fields and next step, records owner and next-step changes, and refuses an unknown owner', async () => {
    const lead = await add();
    const me = (await api<Lead>('PATCH', `/api/leads/${lead.id}`, {})).status; // nothing to update
    expect(me).toBe(400);
    const adminId = (await api<{ user: { id: string } }>('GET', '/api/auth/session')).body.user.id;
    const res = await api<Lead>('PATCH', `/api/leads/${lead.id}`, {
      owner_id: adminId,
      property_address: ' 12 Elm St, Baltimore, MD ',
      target_closing_date: '2027-01-15',
      estimated_fee_cents: 1_250_000,
      follow_up_on: '2026-12-01',
      follow_up_note: 'Send the zoning report',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      owner_id: adminId,
      owner_email: 'staff@example.com',
      // The owner by name, as the product shows them.
      owner_name: 'Stella Staff',
      property_address: '12 Elm St, Baltimore, MD',
      target_closing_date: '2027-01-15',
      estimated_fee_cents: 1_250_000,
      follow_up_on: '2026-12-01',
      follow_up_note: 'Send the zoning report',
    });
    // Clearing the date clears its text; '' clears an optional field.
    expect((await api<Lead>('PATCH', `/api/leads/${lead.id}`, { follow_up_on: null, property_address: '' })).body).toMatchObject({
      follow_up_on: null,
      follow_up_note: null,
      property_address: null,
    });
    const events = await rowsOf<{ kind: string; data: unknown }>(
      database.db,
      sql`select kind, data from lead_events where lead_id = ${lead.id} order by created_at, kind`,
    );
    expect(events).toEqual([
      { kind: 'follow_up', data: { on: '2026-12-01', note: 'Send the zoning report' } },
      { kind: 'owner', data: { from: null, to: 'Stella Staff' } },
      { kind: 'follow_up', data: { on: null, note: null } },
    ]);
    const unknown = await api<{ error: { fields: Record<string, string> } }>('PATCH', `/api/leads/${lead.id}`, {
      owner_id: crypto.randomUUID(),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields.owner_id).toBe('No such admin');
    const noDate = await api<{ error: { fields: Record<string, string> } }>('PATCH', `/api/leads/${lead.id}`, { follow_up_note: 'Call' });
    expect(noDate.body.error.fields.follow_up_on).toBe('Choose a date for the next step');
    const fee = await api<{ error: { fields: Record<string, string> } }>('PATCH', `/api/leads/${lead.id}`, { estimated_fee_cents: -1 });
    expect(fee.body.error.fields.estimated_fee_cents).toBe('Estimated fee cannot be negative');
  });
});
