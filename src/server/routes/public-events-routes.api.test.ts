import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { createTestApp } from '../test/test-app.ts';
import { useTestDatabase, rowsOf } from '../test/database.ts';

const database = useTestDatabase();
beforeEach(async () => {
  await execute(database.db, sql`truncate analytics_events`);
});

const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const event = (fields: Record<string, unknown> = {}) => ({
  session_id: 'AbCdEfGhIjKlMnOpQrStUv',
  event_type: 'pageview',
  page_path: '/',
  ...fields,
});
const rows = () =>
  rowsOf<Record<string, unknown>>(
    database.db,
    sql`
    select session_id, event_type, page_path, time_spent, user_agent, referrer, utm_source, utm_medium, utm_campaign from analytics_events order by id`,
  );

describe('POST /api/public/events', () => {
  it('stores a pageview with the user agent, referrer and UTM values, answering 204', async () => {
    const { json } = createTestApp(database);
    const res = await json(
      'POST',
      '/api/public/events',
      event({ referrer: 'https://www.google.com/', utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'fall' }),
      { 'user-agent': BROWSER },
    );
    expect(res.status).toBe(204);
    expect(await rows()).toEqual([
      {
        session_id: 'AbCdEfGhIjKlMnOpQrStUv',
        event_type: 'pageview',
        page_path: '/',
        time_spent: null,
        user_agent: BROWSER,
        referrer: 'https://www.google.com/',
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'fall',
      },
    ]);
  });

  it('stores awkward text exactly (quotes, backslashes, commas, braces, the word NULL)', async () => {
    const { json } = createTestApp(database);
    const referrer = 'https://x.test/?q="a,b"\\{c}&z=NULL';
    await json('POST', '/api/public/events', event({ referrer, utm_source: 'NULL', page_path: '/a,b{c}"d' }), { 'user-agent': BROWSER });
    expect(await rows()).toMatchObject([{ referrer, utm_source: 'NULL', page_path: '/a,b{c}"d', utm_medium: null }]);
  });

  it('stores heartbeat and time_spent with their seconds', async () => {
    const { json } = createTestApp(database);
    await json('POST', '/api/public/events', event({ event_type: 'heartbeat', time_spent: 30 }), { 'user-agent': BROWSER });
    await json('POST', '/api/public/events', event({ event_type: 'time_spent', time_spent: 12 }), { 'user-agent': BROWSER });
    expect((await rows()).map((r) => [r.event_type, r.time_spent])).toEqual([
      ['heartbeat', 30],
      ['time_spent', 12],
    ]);
  });

  it.each([
    ['a bad session id', event({ session_id: 'short' })],
    ['an unknown event type', event({ event_type: 'click' })],
    ['a path not starting with /', event({ page_path: 'https://evil.example/' })],
    ['a path over 512 characters', event({ page_path: `/${'a'.repeat(512)}` })],
    ['a heartbeat without seconds', event({ event_type: 'heartbeat' })],
    ['negative seconds', event({ event_type: 'time_spent', time_spent: -1 })],
    ['more than an hour', event({ event_type: 'time_spent', time_spent: 3601 })],
  ])('rejects %s with 400 and stores nothing', async (_name, body) => {
    const { json } = createTestApp(database);
    expect((await json('POST', '/api/public/events', body, { 'user-agent': BROWSER })).status).toBe(400);
    expect(await rows()).toEqual([]);
  });

  it('documents the User-Agent it reads, and stores one with any byte a header can carry', async () => {
    const { app, json } = createTestApp(database);
    const doc = (await (await app.request('/api/openapi.json')).json()) as { paths: Record<string, { post: { parameters?: unknown[] } }> };
    expect(doc.paths['/api/public/events']!.post.parameters).toContainEqual(expect.objectContaining({ name: 'user-agent', in: 'header' }));
    expect((await json('POST', '/api/public/events', event(), { 'user-agent': 'Mozilla/5.0 (Caf\u00e9 \u00ff)' })).status).toBe(204);
    expect((await rows()).map((r) => (r as { user_agent?: string }).user_agent)).toContain('Mozilla/5.0 (Caf\u00e9 \u00ff)');
  });

  it.each(['Googlebot/2.1 (+http://www.google.com/bot.html)', 'curl/8.5.0', 'Mozilla/5.0 HeadlessChrome/126.0', ''])(
    'drops bot %j with 204',
    async (ua) => {
      const { json } = createTestApp(database);
      expect((await json('POST', '/api/public/events', event(), { 'user-agent': ua })).status).toBe(204);
      expect(await rows()).toEqual([]);
    },
  );

  it('stores every event of a concurrent burst, acknowledging each after its write', async () => {
    const { json } = createTestApp(database);
    const burst = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        json('POST', '/api/public/events', event({ page_path: `/p${i}` }), { 'user-agent': BROWSER }).then((r) => r.status),
      ),
    );
    expect(burst.every((s) => s === 204)).toBe(true);
    expect(await rows()).toHaveLength(300);
  });
});

describe('analytics rate limit', () => {
  it('refuses more than ANALYTICS_RATE_LIMIT events per IP per minute with 429', async () => {
    const { json } = createTestApp(database, { ANALYTICS_RATE_LIMIT: '2', TRUST_PROXY: 'on' });
    const from = (ip: string) => ({ 'user-agent': BROWSER, 'x-forwarded-for': ip });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await json('POST', '/api/public/events', event(), from('203.0.113.7'))).status);
    expect(statuses).toEqual([204, 204, 429]);
    expect((await json('POST', '/api/public/events', event(), from('203.0.113.8'))).status).toBe(204);
    expect(await rows()).toHaveLength(3);
  });

  it('holds across app processes sharing one database, also for a burst at once', async () => {
    // Two apps on one database: two processes' limiters, counting in the same table.
    const apps = [
      createTestApp(database, { ANALYTICS_RATE_LIMIT: '5', TRUST_PROXY: 'on' }),
      createTestApp(database, { ANALYTICS_RATE_LIMIT: '5', TRUST_PROXY: 'on' }),
    ];
    const from = (ip: string) => ({ 'user-agent': BROWSER, 'x-forwarded-for': ip });
    const before = (await rows()).length;
    const statuses = await Promise.all(
      Array.from({ length: 16 }, (_, i) => apps[i % 2]!.json('POST', '/api/public/events', event(), from('198.51.100.40'))),
    );
    const codes = statuses.map((r) => r.status).sort();
    expect(codes.filter((c) => c === 204)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(11);
    expect((await rows()).length - before).toBe(5);
  });
});
