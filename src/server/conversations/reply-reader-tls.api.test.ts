import pino from 'pino';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { type Dovecot, hasDovecot, startDovecot } from '../test/dovecot.ts';
import { createReader } from './reply-reader.ts';

/**
 * The reply mailbox over TLS (imaps://): a Dovecot with its own self-signed certificate is
 * refused until IMAP_TLS_CA names that certificate, and then read. Settings → Email says why
 * the last look failed meanwhile.
 */
const runIt = hasDovecot || process.env.CI === 'true';
const database = useTestDatabase();
let dovecot: Dovecot;

beforeAll(async () => {
  if (!hasDovecot) throw new Error('/usr/sbin/dovecot is missing: install Debian’s dovecot-imapd (.ci/run does)');
  dovecot = await startDovecot(['replies'], { tls: true });
}, 30_000);
afterAll(async () => {
  await dovecot?.stop();
});

describe.runIf(runIt)('reading replies over TLS', () => {
  it('refuses a certificate nobody vouches for, and reads the mailbox once IMAP_TLS_CA trusts it', async () => {
    dovecot.deliver('replies', 'From: jane@example.com\r\nTo: hello@keystone.test\r\nSubject: Over TLS\r\n\r\nHello.\r\n');
    const logger = pino({ level: 'silent' });
    const url = dovecot.urlOf('replies');
    expect(url).toMatch(/^imaps:\/\/replies:[0-9a-f]+@127\.0\.0\.1:\d+\/INBOX$/);

    // Without the firm's certificate: no message read, and why is kept for Settings → Email.
    const untrusted = createReader(parseConfig({ IMAP_URL: url }), () => database, logger)!;
    expect(await untrusted.flush()).toBe(0);
    const [failed] = await rowsOf<{ last_error: string | null }>(database.db, sql`select last_error from mail_readers`);
    expect(failed!.last_error).toMatch(/certificate/i);
    expect(await rowsOf(database.db, sql`select 1 from inbound_emails`)).toHaveLength(0);

    // With IMAP_TLS_CA naming it: read, and the failure is gone.
    const trusted = createReader(parseConfig({ IMAP_URL: url, IMAP_TLS_CA: dovecot.certificateFile! }), () => database, logger)!;
    expect(await trusted.flush()).toBe(1);
    const [read] = await rowsOf<{ last_error: string | null }>(database.db, sql`select last_error from mail_readers`);
    expect(read!.last_error).toBeNull();
  });
});
