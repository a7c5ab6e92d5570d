import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { EmailOverview } from '#shared/schemas/email';
import { createPostgresDatabaseUrl } from '../test/database.ts';
import { mailTo, startMailSink, type MailSink, type ReceivedMail } from '../test/mail-sink.ts';
import { migratedDataDir, freePort, signInOverHttp, startServer, stopServer, type ServerProcess } from '../test/process.ts';

/**
 * The outbox as a real server runs it, against a real SMTP server: a server killed with
 * kill -9 while it sends, a mail server that is away for a while, and two servers on one
 * PostgreSQL. Every message of every acknowledged lead must arrive; a message sent again
 * after a crash carries the same Message-ID.
 */
const ADMIN = { email: 'mailroom@example.com', password: 'mailroom-password' };
type Engine = 'pglite' | 'postgres';
const engines: Engine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** The database a test's servers share: a DATA_DIR, or a fresh PostgreSQL database. */
async function databaseEnv(engine: Engine): Promise<Record<string, string>> {
  if (engine === 'pglite') return { DATA_DIR: migratedDataDir('mail') };
  const db = await createPostgresDatabaseUrl();
  cleanups.push(db.drop);
  return { DATABASE_URL: db.url };
}

/** A server on any free port, or on `port` (a restarted one, found where it was). */
async function serve(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const server = await startServer({
    ...env,
    ...(port === undefined ? {} : { PORT: String(port) }),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LEAD_MIN_FILL_SECONDS: '0',
    LEAD_RATE_LIMIT: '0',
  });
  cleanups.push(() => stopServer(server, 'SIGKILL'));
  return server;
}

async function submitLeads(url: string, count: number, prefix: string): Promise<string[]> {
  const emails: string[] = [];
  for (let i = 0; i < count; i++) {
    const email = `${prefix}-${i}@example.com`;
    const res = await fetch(`${url}/api/public/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        full_name: `Lead ${prefix} ${i}`,
        email,
        phone: '555',
        property_types: ['land'],
        submission_id: crypto.randomUUID(),
        fill_ms: 5000,
      }),
    });
    expect(res.status).toBe(201);
    emails.push(email);
  }
  return emails;
}

/** Each lead's acknowledgement and the admin's new-lead message, by Message-ID. */
function expectEveryLeadsMail(sink: MailSink, leads: string[]) {
  for (const lead of leads) {
    expect(
      mailTo(sink.messages, lead).map((m) => m.parsed.subject),
      lead,
    ).toContain('We received your request: Keystone Due Diligence');
    expect(
      mailTo(sink.messages, ADMIN.email).some((m) => m.parsed.text?.includes(lead)),
      `the admin heard of ${lead}`,
    ).toBe(true);
  }
}

/** Copies of one message (same Message-ID) must be the same message. */
function duplicatesOf(messages: ReceivedMail[]): number {
  const byId = new Map<string, ReceivedMail[]>();
  for (const m of messages) byId.set(m.parsed.messageId!, [...(byId.get(m.parsed.messageId!) ?? []), m]);
  let copies = 0;
  for (const group of byId.values()) {
    for (const m of group) expect([m.parsed.subject, m.envelope.to]).toEqual([group[0]!.parsed.subject, group[0]!.envelope.to]);
    copies += group.length - 1;
  }
  return copies;
}

/** The outbox's pause while the mail server cannot be reached (10 s by default), and how long it stays away: two failed rounds and part of a third. */
const RETRY_SECONDS = 2;
const OUTAGE_MS = 5_000;
const CLAIM_SECONDS = 5;

const uniqueIds = (messages: ReceivedMail[]) => new Set(messages.map((m) => m.parsed.messageId)).size;

async function outboxStatuses(url: string): Promise<Record<string, number>> {
  const cookie = await signInOverHttp(url, ADMIN);
  const overview = (await (await fetch(`${url}/api/email`, { headers: { cookie } })).json()) as EmailOverview;
  const counts: Record<string, number> = {};
  for (const m of overview.messages) counts[m.status] = (counts[m.status] ?? 0) + 1;
  return counts;
}

describe.each(engines)('email delivery (%s)', (engine) => {
  it('sends every acknowledged lead its mail after kill -9 between commit and send', async () => {
    const sink = await startMailSink({ delayMs: 300 });
    cleanups.push(sink.close);
    const env = {
      ...(await databaseEnv(engine)),
      SMTP_URL: sink.url,
      MAIL_FROM: 'Keystone Due Diligence <hello@keystone.test>',
      SITE_NAME: 'Keystone Due Diligence',
      // The messages the killed server had taken wait this long for the next one (30 s by default).
      MAIL_CLAIM_SECONDS: String(CLAIM_SECONDS),
    };
    const first = await serve(env);
    const leads = await submitLeads(first.url, 10, `crash-${engine}`);
    // Sending has begun (the slow server takes 300 ms a message): kill the server mid-way.
    await sink.waitFor((m) => m.length >= 3, 30_000);
    await stopServer(first, 'SIGKILL');
    const beforeRestart = sink.messages.length;
    expect(beforeRestart).toBeLessThan(20);

    const second = await serve(env, first.port);
    await sink.waitFor((m) => uniqueIds(m) === 20, 90_000);
    expectEveryLeadsMail(sink, leads);
    const copies = duplicatesOf(sink.messages);
    expect(copies).toBeLessThanOrEqual(1); // at most the one in flight when the server died
    await expect.poll(() => outboxStatuses(second.url), { timeout: 10_000 }).toEqual({ sent: 20 });
    console.log(
      `kill -9 while sending (${engine}): ${beforeRestart} of 20 sent before the kill, all 20 after the restart, ${copies} sent twice (same Message-ID)`,
    );
  }, 180_000);
});

/** Five leads queued while nobody listens on the mail server's port, then a mail server comes and gets them all once. */
async function outage(engine: Engine) {
  const smtpPort = await freePort(); // nobody listens there yet: the port goes into SMTP_URL before the mail server starts
  const env = {
    ...(await databaseEnv(engine)),
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    SITE_NAME: 'Keystone Due Diligence',
    MAIL_RETRY_SECONDS: String(RETRY_SECONDS),
  };
  const server = await serve(env);
  const leads = await submitLeads(server.url, 5, `outage-${engine}`);
  // A real wait: the subject is the server's own clock, in another process, retrying the mail server
  // (every RETRY_SECONDS while it cannot be reached).
  await new Promise((r) => setTimeout(r, OUTAGE_MS));
  expect(await outboxStatuses(server.url)).toEqual({ queued: 10 });

  const sink = await startMailSink({ port: smtpPort });
  cleanups.push(sink.close);
  const back = Date.now();
  await sink.waitFor((m) => uniqueIds(m) === 10, 30_000);
  // Within one pause of its return (and the time to send ten).
  expect(Date.now() - back).toBeLessThan(RETRY_SECONDS * 1000 + 5_000);
  expectEveryLeadsMail(sink, leads);
  expect(duplicatesOf(sink.messages)).toBe(0);
  console.log(
    `mail server away for ${OUTAGE_MS / 1000} s (${engine}): all 10 queued messages delivered ${((Date.now() - back) / 1000).toFixed(1)} s after it came back`,
  );
}

describe('a mail server away for a while', () => {
  // Each engine's server waits out its own outage at the same time: the wait is spent once.
  it('delivers the whole queue once it is back, on each database', async () => {
    await Promise.all(engines.map(outage));
  }, 120_000);
});

describe.runIf(engines.includes('postgres'))('two app processes on one PostgreSQL', () => {
  it('send each message once', async () => {
    const sink = await startMailSink({ delayMs: 20 });
    cleanups.push(sink.close);
    const env = { ...(await databaseEnv('postgres')), SMTP_URL: sink.url, SITE_NAME: 'Keystone Due Diligence' };
    const [a, b] = [await serve(env), await serve(env)];
    const leads = [...(await submitLeads(a.url, 15, 'pair-a')), ...(await submitLeads(b.url, 15, 'pair-b'))];
    await sink.waitFor((m) => uniqueIds(m) === 60, 60_000);
    // Both outboxes kept polling meanwhile: nothing more arrives (a real wait: two server processes poll on their own clocks).
    await new Promise((r) => setTimeout(r, 3_000));
    expect(sink.messages).toHaveLength(60);
    expectEveryLeadsMail(sink, leads);
  }, 120_000);
});
