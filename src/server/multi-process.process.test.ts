import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../bench/lib/cluster.ts';
import { acknowledged, measureMixedLoad } from '../../bench/mixed-load.ts';
import { eventBody } from '../../bench/analytics.ts';
import { startMailSink, type MailSink } from './test/mail-sink.ts';
import { BUILT_SERVER, signInOverHttp, startServer, tempDir } from './test/process.ts';
import { sseReader } from './test/sse.ts';
import { countAt, createPostgresDatabaseUrl, untilTrue, withPgClient } from './test/database.ts';

/**
 * Three app processes on one PostgreSQL database behind Caddy's load balancer (the shipped
 * deploy/Caddyfile), under the bench's mixed load: nothing fails, every acknowledged write is
 * stored once, a notification made on one process reaches the streams of the others, reminders
 * and emails go out once, and the per-visitor limits hold across the processes. Needs
 * PostgreSQL (TEST_DATABASE_URL), caddy and a build (`npm test` builds first); CI has all three.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const hasCaddy = spawnSync('sh', ['-c', 'command -v caddy']).status === 0;
const ready = Boolean(serverUrl) && existsSync(BUILT_SERVER) && (hasCaddy || process.env.CI === 'true');
const SECONDS = Number(process.env.MULTI_PROCESS_SECONDS ?? 30);
const ADMIN = { email: 'cluster-admin@example.com', password: 'cluster-admin-password' };
const LEAD_LIMIT = 3;
const EVENT_LIMIT = 20;
const APPOINTMENTS = 5;

let cluster: Cluster | undefined;
let sink: MailSink | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
afterAll(async () => {
  await cluster?.stop();
  await sink?.close();
  await dropDatabase?.();
});

const count = countAt;
const until = untilTrue;

describe.skipIf(!ready)('three app processes behind Caddy on one PostgreSQL', () => {
  it(`serve ${SECONDS} s of mixed load with no error, each write once, notifications, reminders and emails across processes, and shared limits`, async () => {
    // Empty: the processes migrate it as they start, all at once.
    const { url, drop } = await createPostgresDatabaseUrl({ empty: true });
    dropDatabase = drop;
    sink = await startMailSink();

    cluster = await startCluster({
      processes: 3,
      stateDir: path.join(tempDir('cluster'), 'caddy'),
      start: (env) => startServer(env, { entry: 'built', isolated: true, timeoutMs: 90_000 }),
      env: {
        NODE_ENV: 'production',
        DATABASE_URL: url,
        LOG_LEVEL: 'warn',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        SMTP_URL: sink.url,
        MAIL_FROM: '"Keystone Due Diligence" <hello@keystone.test>',
        LEAD_MIN_FILL_SECONDS: '0',
        LEAD_RATE_LIMIT: String(LEAD_LIMIT),
        ANALYTICS_RATE_LIMIT: String(EVENT_LIMIT),
        METRICS_TOKEN: 'cluster-metrics-token-0123456789',
      },
    });
    const [a, b, c] = cluster.servers as [Cluster['servers'][0], Cluster['servers'][0], Cluster['servers'][0]];
    const cookie = await signInOverHttp(cluster.url, ADMIN);

    // Appointments the reminder jobs (one per process, every 30 s) will find due: each must be reminded once.
    await withPgClient(url, (db) =>
      db.query(`
        insert into appointments (date, time, type, overlap_allowed)
        select (t at time zone 'America/New_York')::date, (t at time zone 'America/New_York')::time, 'Call', true
        from generate_series(1, ${APPOINTMENTS}) n, lateral (select date_trunc('minute', now() + make_interval(mins => 10 + n * 5)) as t) x`),
    );

    // The mixed load through Caddy, each public request a visitor of its own so the limits stay on.
    const load = await measureMixedLoad(cluster.url, cookie, {
      connections: 16,
      warmupMs: 2_000,
      durationMs: SECONDS * 1000,
      visitors: true,
    });
    const errors = load.warmup.non2xx + load.warmup.errors + load.measured.non2xx + load.measured.errors;
    expect(
      errors,
      `statuses ${JSON.stringify([...load.measured.statuses])}, errors ${JSON.stringify([...load.measured.errorKinds])}: ${load.measured.firstNon2xxBody}`,
    ).toBe(0);
    const leads = acknowledged(load, 'lead');
    expect(leads).toBeGreaterThan(50);
    expect(await count(url, `select count(*) as n from leads where email like 'bench+%'`)).toBe(leads);
    expect(await count(url, 'select count(*) as n from analytics_events')).toBe(acknowledged(load, 'event'));

    // Caddy spread the load: every process answered a good share of it.
    for (const server of cluster.servers) {
      const metrics = await (
        await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer cluster-metrics-token-0123456789' } })
      ).text();
      const answered = [...metrics.matchAll(/^crm_http_requests_total\{[^}]*\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
      expect(answered).toBeGreaterThan(load.measured.sent / 6);
    }

    // A lead sent to one process reaches the streams open on the two others.
    const streams = await Promise.all(
      [b, c].map(async (s) => sseReader(await fetch(`${s.url}/api/notifications/stream`, { headers: { cookie } }))),
    );
    for (const stream of streams) expect((await stream.next()).event).toBe('ready');
    const submitted = await fetch(`${a.url}/api/public/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: a.url },
      body: JSON.stringify({
        full_name: 'Across The Cluster',
        email: 'across.cluster@example.com',
        phone: '555',
        property_types: ['land'],
        submission_id: crypto.randomUUID(),
        website: '',
      }),
    });
    expect(submitted.status).toBe(201);
    for (const stream of streams) {
      const event = await stream.next(10_000);
      expect(event.event).toBe('notification');
      expect(event.data).toContain('Across The Cluster');
      await stream.cancel();
    }

    // Reminders: one notification per appointment for the one admin, however many processes ran the job.
    await until(
      'every appointment is reminded',
      async () => (await count(url, `select count(*) as n from appointments where reminder_sent_at is not null`)) === APPOINTMENTS,
      45_000,
    );
    expect(await count(url, `select count(*) as n from notifications where type = 'appointment'`)).toBe(APPOINTMENTS);

    // Emails: every queued message sent, each received once.
    await until(
      'the outbox is empty',
      async () => (await count(url, `select count(*) as n from emails where status <> 'sent'`)) === 0,
      60_000,
    );
    const queued = await count(url, 'select count(*) as n from emails');
    expect(queued).toBeGreaterThanOrEqual(leads);
    await sink.waitFor((messages) => messages.length >= queued, 30_000);
    await new Promise((r) => setTimeout(r, 1_000)); // a duplicate, were there one, would arrive meanwhile
    const ids = sink.messages.map((m) => m.parsed.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(queued);

    // One visitor, the same address at every process: the lead and analytics limits count once for all.
    // Sent to each process directly (each trusts this machine as its proxy), so the turns are certain.
    const visitor = (server: Cluster['servers'][0]) => ({
      'content-type': 'application/json',
      origin: server.url,
      'x-forwarded-for': '203.0.113.60',
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0',
    });
    const leadStatuses: number[] = [];
    for (let i = 0; i < LEAD_LIMIT * 2; i++) {
      const server = cluster.servers[i % 3]!;
      const body = {
        full_name: `Limited ${i}`,
        email: `limited.${i}@example.com`,
        phone: '555',
        property_types: ['land'],
        submission_id: crypto.randomUUID(),
        website: '',
      };
      leadStatuses.push(
        (await fetch(`${server.url}/api/public/leads`, { method: 'POST', headers: visitor(server), body: JSON.stringify(body) })).status,
      );
    }
    expect(leadStatuses).toEqual([...Array<number>(LEAD_LIMIT).fill(201), ...Array<number>(LEAD_LIMIT).fill(429)]);
    const eventStatuses = await Promise.all(
      Array.from({ length: EVENT_LIMIT * 3 }, (_, i) => {
        const server = cluster!.servers[i % 3]!;
        return fetch(`${server.url}/api/public/events`, { method: 'POST', headers: visitor(server), body: eventBody() }).then(
          (r) => r.status,
        );
      }),
    );
    expect(eventStatuses.filter((s) => s === 204)).toHaveLength(EVENT_LIMIT);
    expect(eventStatuses.filter((s) => s === 429)).toHaveLength(EVENT_LIMIT * 2);
  }, 300_000);
});
