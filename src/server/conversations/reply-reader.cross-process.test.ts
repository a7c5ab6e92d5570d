import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { countAt, createPostgresDatabaseUrl, untilTrue, withPgClient } from '../test/database.ts';
import { type Dovecot, hasDovecot, startDovecot } from '../test/dovecot.ts';
import { BUILT_SERVER, startServer, stopServer, type ServerProcess } from '../test/process.ts';

/**
 * 1,000 replies in the mailbox, two built servers on one PostgreSQL database reading it, and
 * the one reading killed with SIGKILL mid-batch: every message is stored exactly once, the
 * other process taking over once the dead one's lease runs out. Needs PostgreSQL
 * (TEST_DATABASE_URL), Dovecot and a build (`npm test` builds first); CI has all three.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const ready = Boolean(serverUrl) && existsSync(BUILT_SERVER) && (hasDovecot || process.env.CI === 'true');
const MESSAGES = 1_000;

let dovecot: Dovecot | undefined;
const servers: ServerProcess[] = [];
let dropDatabase: (() => Promise<void>) | undefined;
afterAll(async () => {
  await Promise.all(servers.map((s) => stopServer(s, 'SIGKILL')));
  await dovecot?.stop();
  await dropDatabase?.();
});

const count = countAt;
const until = (what: string, check: () => Promise<boolean>, timeoutMs: number) => untilTrue(what, check, timeoutMs, 50);

describe.skipIf(!ready)('reading the reply mailbox from two processes', () => {
  it(`stores each of ${MESSAGES.toLocaleString('en-US')} replies once, with the reading process killed mid-batch`, async () => {
    if (!hasDovecot) throw new Error('/usr/sbin/dovecot is missing: install Debian’s dovecot-imapd (.ci/run does)');
    dovecot = await startDovecot(['replies']);
    for (let i = 1; i <= MESSAGES; i++) {
      dovecot.deliver(
        'replies',
        `From: Person ${i} <p${i}@example.com>\r\nTo: replies@keystone.test\r\nSubject: Reply ${i}\r\nMessage-ID: <m${i}@example.com>\r\nDate: Fri, 27 Nov 2026 10:00:00 +0000\r\n\r\nMessage ${i}.\r\n`,
      );
    }
    const { url, drop } = await createPostgresDatabaseUrl();
    dropDatabase = drop;
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: url,
      LOG_LEVEL: 'warn',
      MAIL_REPLY_TO: 'replies@keystone.test',
      IMAP_URL: dovecot.urlOf('replies'),
      IMAP_POLL_SECONDS: '1',
      // The lease a dead reader leaves behind: the other process reads on once it runs out.
      MAIL_CLAIM_SECONDS: '4',
    };
    const started = Date.now();
    const [first, second] = await Promise.all([
      startServer(env, { entry: 'built', isolated: true, timeoutMs: 90_000 }),
      startServer(env, { entry: 'built', isolated: true, timeoutMs: 90_000 }),
    ]);
    servers.push(first, second);
    const stored = () => count(url, 'select count(*) as n from inbound_emails');
    // Mid-batch: some stored, most not; the process holding the mailbox dies with no goodbye.
    await until('a tenth is stored', async () => (await stored()) >= MESSAGES / 10, 60_000);
    const [holder] = await withPgClient(
      url,
      async (c) => (await c.query<{ locked_by: string }>('select locked_by from mail_readers')).rows,
    );
    const reading = servers.find((s) => holder?.locked_by.startsWith(`${s.child.pid}-`));
    expect(reading, 'one of the two processes holds the mailbox').toBeDefined();
    await stopServer(reading!, 'SIGKILL');
    const atKill = await stored();
    expect(atKill).toBeLessThan(MESSAGES);

    await until('every message is stored', async () => (await stored()) >= MESSAGES, 90_000);
    const seconds = (Date.now() - started) / 1000;
    // A moment more: nothing is stored twice, whatever looks come after.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await stored()).toBe(MESSAGES);
    expect(await count(url, 'select count(distinct message_id) as n from inbound_emails')).toBe(MESSAGES);
    expect(await count(url, `select max(last_uid) as n from mail_readers`)).toBe(MESSAGES);
    console.log(`${MESSAGES} replies stored once in ${seconds.toFixed(1)} s across two processes (killed at ${atKill})`);
  }, 240_000);
});
