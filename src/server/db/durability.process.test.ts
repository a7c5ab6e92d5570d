import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabaseUrl } from '../test/database.ts';
import { migratedDataDir, signInOverHttp, startServer, stopServer, type ServerProcess } from '../test/process.ts';
import { reconnectingSse } from '../test/sse.ts';
import { createPglite } from './client.ts';

/**
 * `kill -9` of the server during mixed traffic, ten times: every write that was answered
 * 2xx (a public lead, an admin's edit, an analytics event) must be stored after the
 * restart, the database must open cleanly, and a live-notification stream that was open
 * before the kill must reconnect and receive new notifications.
 *
 * PGlite hands every WAL write to the OS before a commit returns (it skips fsync, so a
 * power cut is another matter: see docs/operations.md), which is what a killed process needs.
 * With TEST_DATABASE_URL set the same runs against PostgreSQL (the app server is killed,
 * not PostgreSQL).
 */
const KILL_AFTER_MS = [300, 700, 450, 900, 350, 800, 500, 650, 400, 750];
// Each cycle runs at least KILL_AFTER_MS and until it has acknowledged this many leads, edits and events.
const MIN_PER_CYCLE = 3;
const ADMIN = { email: 'faults@example.com', password: 'faults-password' };
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

type Engine = 'pglite' | 'postgres';
const engines: Engine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const publicLead = (full_name: string, submission_id: string) => ({
  full_name,
  // One person per lead: a second form from the same email joins the first lead.
  email: `${submission_id}@example.com`,
  phone: '555',
  property_types: ['commercial'],
  submission_id,
  fill_ms: 5000,
});

/** What the stopped database holds, read directly (not through the app). */
type Stored = {
  submissionIds: string[];
  messages: Map<string, string | null>;
  sessionIds: string[];
  leadCount: number;
  leadNotifications: number;
  rolledUpViews: number;
  pageviews: number;
};

const STORED_QUERIES = {
  submissionIds: 'select submission_id from leads where submission_id is not null',
  messages: 'select id, message from leads',
  sessionIds: 'select session_id from analytics_events',
  leadNotifications: "select count(*)::int as n from notifications where type = 'lead'",
  rolledUpViews: 'select coalesce(sum(views), 0)::int as n from analytics_hourly',
  pageviews: "select count(*)::int as n from analytics_events where event_type = 'pageview'",
};

async function readStored(query: <T>(sql: string) => Promise<T[]>): Promise<Stored> {
  const messages = await query<{ id: string; message: string | null }>(STORED_QUERIES.messages);
  const count = async (sql: string) => (await query<{ n: number }>(sql))[0]!.n;
  return {
    submissionIds: (await query<{ submission_id: string }>(STORED_QUERIES.submissionIds)).map((r) => r.submission_id),
    messages: new Map(messages.map((r) => [r.id, r.message])),
    sessionIds: (await query<{ session_id: string }>(STORED_QUERIES.sessionIds)).map((r) => r.session_id),
    leadCount: messages.length,
    leadNotifications: await count(STORED_QUERIES.leadNotifications),
    rolledUpViews: await count(STORED_QUERIES.rolledUpViews),
    pageviews: await count(STORED_QUERIES.pageviews),
  };
}

describe.each(engines)('durability under kill -9 (%s)', (engine) => {
  it('keeps every acknowledged lead, edit and event across 10 kill -9 during mixed traffic; streams reconnect', async () => {
    let env: Record<string, string>;
    let readBack: () => Promise<Stored>;
    if (engine === 'postgres') {
      const db = await createPostgresDatabaseUrl();
      cleanups.push(db.drop);
      env = { DATABASE_URL: db.url };
      readBack = async () => {
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        try {
          return await readStored(async (sql) => (await client.query(sql)).rows);
        } finally {
          await client.end();
        }
      };
    } else {
      const dataDir = migratedDataDir('durability');
      env = { DATA_DIR: dataDir };
      readBack = async () => {
        const client = createPglite({ dataDir });
        try {
          return await readStored(async <T>(sql: string) => (await client.query<T>(sql)).rows);
        } finally {
          await client.close();
        }
      };
    }
    env = {
      ...env,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LEAD_MIN_FILL_SECONDS: '0',
      LEAD_RATE_LIMIT: '0',
      ANALYTICS_RATE_LIMIT: '0',
    };
    // The first server takes any free port; every restart takes that one, so the stream
    // client finds the restarted server where it was.
    let port: number | undefined;
    const start = async (): Promise<ServerProcess> => {
      const started = await startServer({ ...env, ...(port === undefined ? {} : { PORT: String(port) }) });
      cleanups.push(() => stopServer(started, 'SIGKILL'));
      port = started.port;
      return started;
    };

    let server = await start();
    const url = server.url;
    // As the dashboard sends its writes: with the site's Origin.
    const admin = { cookie: await signInOverHttp(url, ADMIN), origin: url };

    // Leads the admin edits: each has one editor, so its edits are sequential.
    const edited: { id: string; attempts: { message: string; acknowledged: boolean }[] }[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(
        `${url}/api/leads`,
        { full_name: `Edited ${i}`, email: `edited${i}@example.com`, phone: '1', property_types: ['land'] },
        admin,
      );
      expect(res.status).toBe(201);
      edited.push({ id: ((await res.json()) as { id: string }).id, attempts: [] });
    }

    const stream = reconnectingSse(`${url}/api/notifications/stream`, admin, 150);
    cleanups.push(async () => stream.close());
    await stream.waitFor((e) => e.event === 'ready');

    const leads = { attempted: 0, acknowledged: [] as string[] };
    const events = { attempted: 0, acknowledged: [] as string[] };
    let edits = 0;
    let seq = 0;
    const ackedEdits = () => edited.reduce((n, l) => n + l.attempts.filter((a) => a.acknowledged).length, 0);

    for (const [cycle, killAfterMs] of KILL_AFTER_MS.entries()) {
      let killed = false;
      const leadWorker = async () => {
        while (!killed) {
          const id = crypto.randomUUID();
          leads.attempted++;
          try {
            const res = await post(`${url}/api/public/leads`, publicLead('Durable Lead', id));
            if (res.status === 201) leads.acknowledged.push(id);
          } catch {
            // cut off by the kill: nothing was promised
          }
        }
      };
      const editWorker = async (lead: (typeof edited)[number]) => {
        while (!killed) {
          const attempt = { message: `edit ${++seq}`, acknowledged: false };
          lead.attempts.push(attempt);
          edits++;
          try {
            const res = await fetch(`${url}/api/leads/${lead.id}`, {
              method: 'PATCH',
              headers: { 'content-type': 'application/json', ...admin },
              body: JSON.stringify({ message: attempt.message }),
            });
            attempt.acknowledged = res.status === 200;
          } catch {
            // cut off by the kill
          }
        }
      };
      const eventWorker = async () => {
        while (!killed) {
          // One session per event, so each acknowledged event is found by its own id.
          const sessionId = `k${crypto.randomUUID().replaceAll('-', '')}`;
          events.attempted++;
          try {
            const res = await post(
              `${url}/api/public/events`,
              { session_id: sessionId, event_type: 'pageview', page_path: '/faults' },
              { 'user-agent': BROWSER_UA },
            );
            if (res.status === 204) events.acknowledged.push(sessionId);
          } catch {
            // cut off by the kill
          }
        }
      };
      const before = { leads: leads.acknowledged.length, events: events.acknowledged.length, edits: ackedEdits() };
      const workers = [leadWorker(), leadWorker(), leadWorker(), ...edited.map(editWorker), eventWorker(), eventWorker(), eventWorker()];
      await new Promise((r) => setTimeout(r, killAfterMs)); // a real wait: real traffic to a real server runs meanwhile
      // On a busy machine the kill waits until this cycle has acknowledged some of each kind,
      // so every crash cuts real traffic of every kind.
      const deadline = Date.now() + 30_000;
      const perCycle = () => ({
        leads: leads.acknowledged.length - before.leads,
        events: events.acknowledged.length - before.events,
        edits: ackedEdits() - before.edits,
      });
      while (Object.values(perCycle()).some((n) => n < MIN_PER_CYCLE) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const counts = perCycle();
      expect(
        Math.min(counts.leads, counts.events, counts.edits),
        `acknowledged in cycle ${cycle} before the kill: ${JSON.stringify(counts)}`,
      ).toBeGreaterThanOrEqual(MIN_PER_CYCLE);
      server.child.kill('SIGKILL');
      killed = true;
      await server.exited;
      await Promise.all(workers);

      const seen = stream.events.length;
      const connectionsBefore = stream.connections;
      server = await start();
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      // The stream that was open before the kill comes back by itself: `ready`, then live.
      await stream.waitFor((e) => e.event === 'ready' && e.connection > connectionsBefore, seen, 20_000);
      const marker = crypto.randomUUID();
      const name = `After Restart ${cycle}`;
      const res = await post(`${url}/api/public/leads`, { ...publicLead(name, marker), email: `restart${cycle}@example.com` });
      expect(res.status).toBe(201);
      leads.attempted++;
      leads.acknowledged.push(marker);
      const live = await stream.waitFor((e) => e.event === 'notification' && e.data.includes(`restart${cycle}@example.com`), seen, 10_000);
      expect(JSON.parse(live.data)).toMatchObject({ type: 'lead', message: `New lead: ${name} (restart${cycle}@example.com)` });
    }

    stream.close();
    // A clean stop after the last crash recovery, then read the rows directly.
    expect(await stopServer(server)).toBe(0);
    const stored = await readBack();

    const storedLeads = new Set(stored.submissionIds);
    const lostLeads = leads.acknowledged.filter((id) => !storedLeads.has(id));
    const storedEvents = new Set(stored.sessionIds);
    const lostEvents = events.acknowledged.filter((id) => !storedEvents.has(id));
    const editsAcknowledged = ackedEdits();
    console.info(
      `kill -9 x${KILL_AFTER_MS.length} (${engine}): leads ${leads.acknowledged.length} acknowledged of ${leads.attempted} attempted, ` +
        `${lostLeads.length} lost; edits ${editsAcknowledged} acknowledged of ${edits}; events ${events.acknowledged.length} acknowledged ` +
        `of ${events.attempted}, ${lostEvents.length} lost; stream reconnected ${stream.connections - 1} times`,
    );

    // Real traffic was cut off: some of each kind acknowledged in every cycle, and some in flight at each kill.
    expect(leads.acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER_MS.length * MIN_PER_CYCLE);
    expect(events.acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER_MS.length * MIN_PER_CYCLE);
    expect(editsAcknowledged).toBeGreaterThanOrEqual(KILL_AFTER_MS.length * MIN_PER_CYCLE);
    expect(leads.attempted + events.attempted + edits).toBeGreaterThan(
      leads.acknowledged.length + events.acknowledged.length + editsAcknowledged,
    );
    expect(lostLeads).toEqual([]);
    expect(lostEvents).toEqual([]);
    // Each edited lead shows its last acknowledged edit, or one attempted after it (sent, cut off by a kill, but committed).
    for (const lead of edited) {
      const lastAcked = lead.attempts.findLastIndex((a) => a.acknowledged);
      expect(lastAcked).toBeGreaterThanOrEqual(0);
      const allowed = lead.attempts.slice(lastAcked).map((a) => a.message);
      expect(allowed).toContain(stored.messages.get(lead.id));
    }
    // Nothing half-written: each lead has its notification (one admin), each page view its rollup.
    expect(stored.leadNotifications).toBe(stored.leadCount);
    expect(stored.rolledUpViews).toBe(stored.pageviews);
    expect(new Set(stored.sessionIds).size).toBe(stored.sessionIds.length);
  }, 240_000);
});
