import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dovecot, hasDovecot, startDovecot } from './dovecot.ts';

/*
 * The Dovecot the reply-reading tests stand on: started from Debian's package with a throwaway
 * configuration, mail delivered into a Maildir is read back over IMAP with imapflow (the client
 * the product reads replies with), and a wrong password is refused. In CI it must run.
 */
const runIt = hasDovecot || process.env.CI === 'true';

describe.runIf(runIt)('Dovecot for the tests', () => {
  let dovecot: Dovecot;
  beforeAll(async () => {
    if (!hasDovecot) throw new Error('/usr/sbin/dovecot is missing: install Debian’s dovecot-imapd (.ci/run does)');
    dovecot = await startDovecot(['replies', 'other']);
  }, 30_000);
  afterAll(async () => {
    await dovecot?.stop();
  });

  const client = (user: string, password?: string) => {
    const url = new URL(dovecot.urlOf(user));
    return new ImapFlow({
      host: url.hostname,
      port: Number(url.port),
      secure: false,
      doSTARTTLS: false,
      auth: { user, pass: password ?? decodeURIComponent(url.password) },
      logger: false,
    });
  };

  it('holds what is delivered to a user’s INBOX, read back over IMAP with its UID; other users see none of it', async () => {
    const raw = [
      'From: Jane Doe <jane@example.com>',
      'To: replies+k3x9@firm.example',
      'Subject: Re: Your inspection',
      'Message-ID: <reply-1@example.com>',
      'In-Reply-To: <sent-1@firm.example>',
      'Date: Fri, 27 Nov 2026 10:00:00 +0000',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Thursday works for me.',
      '',
    ].join('\r\n');
    dovecot.deliver('replies', raw);

    const imap = client('replies');
    await imap.connect();
    try {
      const box = await imap.mailboxOpen('INBOX');
      expect(box.exists).toBe(1);
      const message = await imap.fetchOne('*', { uid: true, envelope: true, source: true });
      expect(message).not.toBe(false);
      if (message === false) return;
      expect(message.uid).toBeGreaterThan(0);
      expect(message.envelope?.subject).toBe('Re: Your inspection');
      expect(message.envelope?.inReplyTo).toBe('<sent-1@firm.example>');
      expect(message.source?.toString('utf8')).toContain('Thursday works for me.');
    } finally {
      await imap.logout();
    }

    const other = client('other');
    await other.connect();
    try {
      expect((await other.mailboxOpen('INBOX')).exists).toBe(0);
    } finally {
      await other.logout();
    }
  });

  it('refuses a wrong password', async () => {
    const imap = client('replies', 'not-the-password');
    await expect(imap.connect()).rejects.toThrow();
    imap.close();
  });

  it('spells the IMAP_URL of a user with its port', () => {
    expect(dovecot.urlOf('replies')).toMatch(new RegExp(`^imap://replies:[0-9a-f]{24}@127\\.0\\.0\\.1:${dovecot.port}/INBOX$`));
  });
});
