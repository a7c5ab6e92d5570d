import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANALYTICS_SESSION_PATH_CAP } from '#shared/constants';
import { UNSTORABLE_MESSAGE } from '#shared/schemas/text';
import type { Database } from '../db/client.ts';
import { execute } from '../db/sql.ts';
import { EventRecorder } from './event-recorder.ts';
import { createTestApp } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

/**
 * One client's events must never fail another's: the burst of the penetration test (100
 * visitors' events sent together with a hostile pair), and the caps on what is stored.
 * docs/security.md, "Analytics: isolation, retention and caps".
 */
const database = useTestDatabase();
beforeEach(async () => {
  await execute(database.db, sql`truncate analytics_events, analytics_hourly, analytics_sessions, analytics_hourly_sources`);
});
afterEach(async () => {
  await execute(database.db, sql`drop trigger if exists analytics_poison on analytics_events`);
  await execute(database.db, sql`drop function if exists analytics_poison()`);
});

const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const view = (session: number, page_path: string) => ({
  session_id: `visitor${String(session).padStart(4, '0')}xxxxxxxxxx`,
  event_type: 'pageview',
  page_path,
});
const count = async (query: ReturnType<typeof sql>) => Number((await rowsOf<{ n: number }>(database.db, query))[0]!.n);

/** 100 legitimate page views with `bad` in the middle, all sent at once; the statuses of each group. */
async function burstWith(bad: Record<string, unknown>[]) {
  const { json } = createTestApp(database);
  const send = (body: Record<string, unknown>) => json('POST', '/api/public/events', body, { 'user-agent': BROWSER });
  const legit = Array.from({ length: 100 }, (_, i) => view(i, `/page${i % 7}`));
  const requests = [...legit.slice(0, 50).map(send), ...bad.map(send), ...legit.slice(50).map(send)];
  const answers = await Promise.all(requests);
  const statuses = answers.map((r) => r.status);
  return {
    legit: [...statuses.slice(0, 50), ...statuses.slice(50 + bad.length)],
    bad: answers.slice(50, 50 + bad.length),
  };
}

describe('a bad event fails only its own request', () => {
  it('refuses the lone-surrogate pair of the finding with 400; the 100 others are stored and counted', async () => {
    const { legit, bad } = await burstWith([view(9001, '/x\ud800'), view(9002, '/x\udbff')]);
    expect(legit.filter((s) => s !== 204)).toEqual([]);
    for (const res of bad) {
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields).toEqual({ page_path: UNSTORABLE_MESSAGE });
    }
    expect(await count(sql`select count(*)::int as n from analytics_events`)).toBe(100);
    expect(await count(sql`select coalesce(sum(views), 0)::int as n from analytics_hourly`)).toBe(100);
  });

  it('isolates an event the database itself refuses: its request gets 400, the 100 others in its batch are stored', async () => {
    // An event the schemas accept but the database refuses (a value error, SQLSTATE 22023), the
    // kind of input that reached the database in the finding, raised inside the batch's statement.
    await execute(
      database.db,
      sql.raw(`
      create function analytics_poison() returns trigger language plpgsql as $$
      begin
        if new.page_path = '/poison' then raise exception 'refused' using errcode = '22023'; end if;
        return new;
      end $$`),
    );
    await execute(
      database.db,
      sql`create trigger analytics_poison before insert on analytics_events for each row execute function analytics_poison()`,
    );
    const { legit, bad } = await burstWith([view(9001, '/poison'), view(9002, '/poison')]);
    expect(legit.filter((s) => s !== 204)).toEqual([]);
    expect(bad.map((r) => r.status)).toEqual([400, 400]);
    expect(await count(sql`select count(*)::int as n from analytics_events`)).toBe(100);
    expect(await count(sql`select coalesce(sum(views), 0)::int as n from analytics_hourly`)).toBe(100);
    expect(await count(sql`select coalesce(sum(page_views), 0)::int as n from analytics_sessions`)).toBe(100);
  });
});

describe('what one event may store', () => {
  it(`counts a session's paths after its first ${ANALYTICS_SESSION_PATH_CAP.pathsPerSession} under ${ANALYTICS_SESSION_PATH_CAP.otherPath}, still answering 204`, async () => {
    const { json } = createTestApp(database);
    const send = (session: number, path: string) =>
      json('POST', '/api/public/events', view(session, path), { 'user-agent': BROWSER }).then((r) => r.status);
    const statuses = [];
    for (let i = 0; i < 60; i++) statuses.push(await send(1, `/invented${i}`));
    // Paths it has already stored are still its own; another session may still add paths.
    statuses.push(await send(1, '/invented3'), await send(2, '/invented55'));
    expect(statuses.every((s) => s === 204)).toBe(true);
    const paths = await rowsOf<{ page_path: string; views: number }>(database.db, sql`select page_path, views from analytics_hourly`);
    expect(paths).toHaveLength(51 + 1);
    expect(paths.find((p) => p.page_path === ANALYTICS_SESSION_PATH_CAP.otherPath)?.views).toBe(10);
    expect(paths.find((p) => p.page_path === '/invented3')?.views).toBe(2);
    expect(paths.find((p) => p.page_path === '/invented55')?.views).toBe(1);
    expect(await count(sql`select count(*)::int as n from analytics_events`)).toBe(62);
  });

  it('stores at most 512 characters of a user agent, and reads its device from them', async () => {
    const { json } = createTestApp(database);
    // A phone's agent padded to 16 KB: stored cut, its device read from the start.
    const huge = `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36 ${'Mobile '.repeat(2300)}`;
    expect((await json('POST', '/api/public/events', view(1, '/'), { 'user-agent': huge })).status).toBe(204);
    const [row] = await rowsOf<{ user_agent: string; device: string }>(database.db, sql`select user_agent, device from analytics_events`);
    expect(row!.user_agent).toBe(huge.slice(0, 512));
    expect(row!.device).toBe('mobile');
  });
});

describe('the "visitors moved" announcement', () => {
  it('sent late, after the database has closed, is dropped quietly (an uncaught error here fails the whole run)', async () => {
    let closed = false;
    const open: Database = Object.create(database) as Database;
    Object.defineProperty(open, 'db', {
      get: () => {
        if (closed) throw new Error('database closed');
        return database.db;
      },
    });
    // The 2 s window is the subject: its clock and timer are fake (the database's I/O is not).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const recorder = new EventRecorder(() => open, 0);
      const event = { session_id: 'announceAAAAAAAAAAAAAA', event_type: 'pageview' as const, page_path: '/' };
      await recorder.record(event, BROWSER, 'localhost'); // announced at once
      await recorder.record(event, BROWSER, 'localhost'); // announced at the end of the 2 s window
      closed = true;
      await vi.advanceTimersByTimeAsync(2_300);
    } finally {
      vi.useRealTimers();
    }
    expect(await count(sql`select count(*)::int as n from analytics_events where session_id = 'announceAAAAAAAAAAAAAA'`)).toBe(2);
  });
});
