import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.ts';

describe('parseConfig', () => {
  it('uses the documented defaults', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      admin: undefined,
      businessTimeZone: 'America/New_York',
      leadRateLimit: 10,
      leadMinFillSeconds: 2,
      bookingRateLimit: 2,
      bookingHoldAbovePerHour: 6,
      availabilityRateLimit: 120,
      fixedOrigin: undefined,
    });
    expect(config.trustProxy.entries).toBe('none');
    expect(config.site.email).toMatch(/@/);
  });

  it('reads every variable', () => {
    const config = parseConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/crm',
      DATABASE_URL: 'postgres://u:p@db.internal:5432/crm',
      ADMIN_EMAIL: 'Boss@Example.com',
      ADMIN_PASSWORD: 'correct horse',
      ADMIN_NAME: ' Bea Boss ',
      SITE_NAME: 'Acme Diligence',
      SITE_EMAIL: 'hello@acme.test',
      SITE_PHONE: '+1 301 555 0000',
      BUSINESS_TIME_ZONE: 'America/Chicago',
      LEAD_RATE_LIMIT: '0',
      LEAD_MIN_FILL_SECONDS: '0',
      BOOKING_RATE_LIMIT: '0',
      BOOKING_HOLD_ABOVE_PER_HOUR: '25',
      AVAILABILITY_RATE_LIMIT: '0',
      TRUST_PROXY: 'on',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/tmp/crm',
      databaseUrl: 'postgres://u:p@db.internal:5432/crm',
      admin: { email: 'boss@example.com', password: 'correct horse', name: 'Bea Boss' },
      site: { name: 'Acme Diligence', email: 'hello@acme.test', phone: '+1 301 555 0000' },
      businessTimeZone: 'America/Chicago',
      leadRateLimit: 0,
      leadMinFillSeconds: 0,
      bookingRateLimit: 0,
      bookingHoldAbovePerHour: 25,
      availabilityRateLimit: 0,
    });
    expect(config.trustProxy.entries).toBe('all');
  });

  it('names the ADMIN_EMAIL account by the part of its email before the @ without ADMIN_NAME', () => {
    expect(parseConfig({ ADMIN_EMAIL: 'Jo.Smith@Firm.com', ADMIN_PASSWORD: 'long enough' }).admin).toEqual({
      email: 'jo.smith@firm.com',
      password: 'long enough',
      name: 'jo.smith',
    });
  });

  it('reads TRUST_PROXY as a list of proxy addresses and CIDR ranges, IPv4 and IPv6', () => {
    const { trustProxy } = parseConfig({ TRUST_PROXY: ' 10.0.0.0/8, 127.0.0.1,fd00::/8 ,::1, ::ffff:192.0.2.9' });
    expect(trustProxy.entries).toEqual(['10.0.0.0/8', '127.0.0.1', 'fd00::/8', '::1', '192.0.2.9']);
    for (const yes of ['10.1.2.3', '127.0.0.1', '::ffff:127.0.0.1', 'fd12:3456::1', '::1', '192.0.2.9'])
      expect({ yes, trusted: trustProxy.trusts(yes) }).toEqual({ yes, trusted: true });
    for (const no of ['11.0.0.1', '127.0.0.2', 'fe80::1', '2001:db8::1', 'unknown', ''])
      expect({ no, trusted: trustProxy.trusts(no) }).toEqual({ no, trusted: false });
    for (const off of ['', 'off', '0', 'no']) expect(parseConfig({ TRUST_PROXY: off }).trustProxy.entries).toBe('none');
  });

  it('reads OUTBOUND_ALLOW_HOSTS as hosts with optional ports, none by default', () => {
    expect(parseConfig({}).outboundAllowHosts).toEqual([]);
    expect(parseConfig({ OUTBOUND_ALLOW_HOSTS: ' CalDAV.Internal, 10.0.0.5:8443,[fd00::5]:443 ' }).outboundAllowHosts).toEqual([
      { host: 'caldav.internal', port: undefined },
      { host: '10.0.0.5', port: 8443 },
      { host: '[fd00::5]', port: 443 },
    ]);
  });

  it('reads CREDENTIALS_KEY and CREDENTIALS_KEY_PREVIOUS as 32-byte keys (base64, base64url or hex), unset by default', () => {
    expect(parseConfig({})).toMatchObject({ credentialsKey: undefined, credentialsKeyPrevious: undefined });
    const bytes = Buffer.alloc(32, 7);
    const config = parseConfig({ CREDENTIALS_KEY: ` ${bytes.toString('base64')} `, CREDENTIALS_KEY_PREVIOUS: bytes.toString('hex') });
    expect(config.credentialsKey?.bytes()).toEqual(bytes);
    expect(config.credentialsKeyPrevious?.id).toBe(config.credentialsKey?.id);
    expect(parseConfig({ CREDENTIALS_KEY: bytes.toString('base64url') }).credentialsKey?.bytes()).toEqual(bytes);
    expect(parseConfig({ CREDENTIALS_KEY: '  ' }).credentialsKey).toBeUndefined();
  });

  it.each([
    ['CREDENTIALS_KEY', 'my-calendar-password'],
    ['CREDENTIALS_KEY', Buffer.alloc(16, 1).toString('base64')],
    ['CREDENTIALS_KEY_PREVIOUS', 'ab'.repeat(31)],
  ])('stops on a %s that is not a 32-byte key, saying how to make one and not repeating it', (name, value) => {
    const expected = `Invalid configuration: ${name} must be 32 random bytes written as base64 (44 characters) or hex (64 characters); make one with: openssl rand -base64 32`;
    expect(() => parseConfig({ [name]: value })).toThrowError(new ConfigError(expected));
  });

  it.each([
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be a whole number from 0 to 65535, got "70000"'],
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be a whole number from 0 to 65535, got "abc"'],
    [{ DATABASE_URL: 'not a url' }, 'Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ DATABASE_URL: 'mysql://x/y' }, 'Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ LEAD_RATE_LIMIT: '-1' }, 'Invalid configuration: LEAD_RATE_LIMIT must be a whole number from 0 to 1000000, got "-1"'],
    [{ BOOKING_RATE_LIMIT: '1.5' }, 'Invalid configuration: BOOKING_RATE_LIMIT must be a whole number from 0 to 1000000, got "1.5"'],
    [
      { BOOKING_HOLD_ABOVE_PER_HOUR: '-1' },
      'Invalid configuration: BOOKING_HOLD_ABOVE_PER_HOUR must be a whole number from 0 to 1000000, got "-1"',
    ],
    [
      { AVAILABILITY_RATE_LIMIT: '2.5' },
      'Invalid configuration: AVAILABILITY_RATE_LIMIT must be a whole number from 0 to 1000000, got "2.5"',
    ],
    [
      { TRUST_PROXY: 'maybe' },
      'Invalid configuration: TRUST_PROXY must be on, off or a list of proxy addresses and CIDR ranges such as 10.0.0.0/8,127.0.0.1 (not "maybe")',
    ],
    [
      { TRUST_PROXY: '10.0.0.0/33' },
      'Invalid configuration: TRUST_PROXY must be on, off or a list of proxy addresses and CIDR ranges such as 10.0.0.0/8,127.0.0.1 (not "10.0.0.0/33")',
    ],
    [
      { TRUST_PROXY: '10.0.0.1,,10.0.0.2' },
      'Invalid configuration: TRUST_PROXY must be on, off or a list of proxy addresses and CIDR ranges such as 10.0.0.0/8,127.0.0.1 (not "")',
    ],
    [
      { TRUST_PROXY: 'proxy.internal' },
      'Invalid configuration: TRUST_PROXY must be on, off or a list of proxy addresses and CIDR ranges such as 10.0.0.0/8,127.0.0.1 (not "proxy.internal")',
    ],
    [
      { TRUST_PROXY: 'fd00::/129' },
      'Invalid configuration: TRUST_PROXY must be on, off or a list of proxy addresses and CIDR ranges such as 10.0.0.0/8,127.0.0.1 (not "fd00::/129")',
    ],
    [
      { TRUST_PROXY: '10.0.0.0/8/1' },
      'Invalid configuration: TRUST_PROXY must be on, off or a list of proxy addresses and CIDR ranges such as 10.0.0.0/8,127.0.0.1 (not "10.0.0.0/8/1")',
    ],
    [
      { BUSINESS_TIME_ZONE: 'Mars/Olympus' },
      'Invalid configuration: BUSINESS_TIME_ZONE must be an IANA time zone such as America/New_York',
    ],
    [{ ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'short' }, 'Invalid configuration: ADMIN_PASSWORD must be at least 8 characters'],
    [{ ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'long enough' }, 'Invalid configuration: ADMIN_EMAIL Invalid email address'],
    [{ ADMIN_EMAIL: 'boss@example.com' }, 'Invalid configuration: ADMIN_EMAIL and ADMIN_PASSWORD must be set together'],
    [
      { ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'long enough', ADMIN_NAME: 'x'.repeat(81) },
      'Invalid configuration: ADMIN_NAME Name must be at most 80 characters',
    ],
    [{ ADMIN_NAME: 'Bea Boss' }, 'Invalid configuration: ADMIN_NAME names the ADMIN_EMAIL account: set ADMIN_EMAIL too'],
    [
      { OUTBOUND_ALLOW_HOSTS: 'caldav.internal,fd00::5:8443' },
      'Invalid configuration: OUTBOUND_ALLOW_HOSTS must be a list of host names or IP addresses, each with an optional port, such as calendar.internal,10.0.0.5:8443,[fd00::5] (not "fd00::5:8443")',
    ],
    [
      { OUTBOUND_ALLOW_HOSTS: '10.0.0.0/8' },
      'Invalid configuration: OUTBOUND_ALLOW_HOSTS must be a list of host names or IP addresses, each with an optional port, such as calendar.internal,10.0.0.5:8443,[fd00::5] (not "10.0.0.0/8")',
    ],
  ])('stops on %o with one clear line', (env, message) => {
    expect(() => parseConfig(env)).toThrowError(new ConfigError(message));
  });
});

describe('email settings', () => {
  it('read SMTP_URL, MAIL_FROM, MAIL_REPLY_TO, LEAD_REMINDER_HOURS, PUBLIC_MAIL_PER_ADDRESS_PER_DAY, the outbox timings and PUBLIC_URL', () => {
    const config = parseConfig({
      SMTP_URL: 'smtp://mailer%40firm.com:p%40ss%3Aword@mail.firm.com:2525',
      MAIL_FROM: '"Keystone Due Diligence" <Hello@Firm.com>',
      MAIL_REPLY_TO: 'team@firm.com',
      LEAD_REMINDER_HOURS: '0',
      PUBLIC_MAIL_PER_ADDRESS_PER_DAY: '0',
      MAIL_RETRY_SECONDS: '3',
      MAIL_CLAIM_SECONDS: '120',
      LEAD_EMAIL_PER_HOUR: '0',
      IMAP_URL: 'imaps://replies%40firm.com:p%40ss@imap.firm.com/Replies%20In',
      IMAP_POLL_SECONDS: '5',
      PUBLIC_URL: 'https://crm.firm.com/',
    });
    expect(config.mail).toEqual({
      smtp: { host: 'mail.firm.com', port: 2525, secure: false, auth: { user: 'mailer@firm.com', pass: 'p@ss:word' } },
      from: { name: 'Keystone Due Diligence', address: 'hello@firm.com' },
      replyTo: { name: '', address: 'team@firm.com' },
      domain: 'firm.com',
      leadReminderHours: 0,
      publicPerAddressPerDay: 0,
      retrySeconds: 3,
      claimSeconds: 120,
      leadMessagesPerHour: 0,
      imap: { host: 'imap.firm.com', port: 993, secure: true, auth: { user: 'replies@firm.com', pass: 'p@ss' }, mailbox: 'Replies In' },
      imapCa: undefined,
      imapPollSeconds: 5,
      imapAuthservId: undefined,
      imapFirstDays: 14,
    });
    expect(config.publicUrl).toBe('https://crm.firm.com');
    expect(config.fixedOrigin).toBe('https://crm.firm.com');
    expect(parseConfig({ SMTP_URL: 'smtps://mail.firm.com' }).mail.smtp).toEqual({
      host: 'mail.firm.com',
      port: 465,
      secure: true,
      auth: undefined,
    });
  });

  it('default to email off, from the site name and email, a 24-hour reminder, 5 visitor emails per address a day, a 10 s retry, a 30 s claim and this server as the public URL', () => {
    const config = parseConfig({ SITE_NAME: 'Acme', SITE_EMAIL: 'info@acme.test', PORT: '8080', HOST: '0.0.0.0' });
    expect(config.mail).toEqual({
      smtp: undefined,
      from: { name: 'Acme', address: 'info@acme.test' },
      replyTo: undefined,
      domain: 'acme.test',
      leadReminderHours: 24,
      publicPerAddressPerDay: 5,
      retrySeconds: 10,
      claimSeconds: 30,
      leadMessagesPerHour: 100,
      imap: undefined,
      imapCa: undefined,
      imapPollSeconds: 15,
      imapAuthservId: undefined,
      imapFirstDays: 14,
    });
    expect(config.publicUrl).toBe('http://127.0.0.1:8080');
  });

  it.each([
    [{ SMTP_URL: 'mail.firm.com:587' }, 'Invalid configuration: SMTP_URL must start with smtp:// or smtps://'],
    [{ IMAP_URL: 'pop3://mail.firm.com' }, 'Invalid configuration: IMAP_URL must start with imaps:// (or imap:// on this machine)'],
    [
      { IMAP_URL: 'imap://u:p@imap.firm.com/INBOX' },
      'Invalid configuration: IMAP_URL must use imaps:// (TLS): imap:// is accepted on this machine’s loopback only',
    ],
    [{ IMAP_URL: 'imaps://imap.firm.com/INBOX' }, 'Invalid configuration: IMAP_URL must name the user: imaps://user:password@host/INBOX'],
    [{ IMAP_TLS_CA: '/nonexistent/ca.pem' }, 'Invalid configuration: IMAP_TLS_CA cannot be read (ENOENT): give the path of a PEM file'],
    [{ SMTP_URL: 'http://mail.firm.com' }, 'Invalid configuration: SMTP_URL must start with smtp:// or smtps://'],
    [{ SMTP_URL: 'smtp://mail.firm.com/inbox' }, 'Invalid configuration: SMTP_URL must not have a path'],
    [{ MAIL_FROM: 'a@firm.com, b@firm.com' }, 'Invalid configuration: MAIL_FROM must be one address, such as "Firm Name" <hello@firm.com>'],
    [{ MAIL_FROM: 'Firm <not-an-address>' }, 'Invalid configuration: MAIL_FROM has an invalid address "not-an-address"'],
    [{ MAIL_FROM: 'Firm\r\nBcc: x@evil.test <a@firm.com>' }, 'Invalid configuration: MAIL_FROM must be one line'],
    [{ MAIL_REPLY_TO: 'nobody' }, 'Invalid configuration: MAIL_REPLY_TO must be one address, such as "Firm Name" <hello@firm.com>'],
    [{ LEAD_REMINDER_HOURS: '200' }, 'Invalid configuration: LEAD_REMINDER_HOURS must be a whole number from 0 to 168, got "200"'],
    [
      { PUBLIC_MAIL_PER_ADDRESS_PER_DAY: '-1' },
      'Invalid configuration: PUBLIC_MAIL_PER_ADDRESS_PER_DAY must be a whole number from 0 to 1000, got "-1"',
    ],
    [
      { PUBLIC_MAIL_PER_ADDRESS_PER_DAY: 'five' },
      'Invalid configuration: PUBLIC_MAIL_PER_ADDRESS_PER_DAY must be a whole number from 0 to 1000, got "five"',
    ],
    [{ MAIL_RETRY_SECONDS: '0' }, 'Invalid configuration: MAIL_RETRY_SECONDS must be a whole number from 1 to 3600, got "0"'],
    [{ LEAD_EMAIL_PER_HOUR: '-1' }, 'Invalid configuration: LEAD_EMAIL_PER_HOUR must be a whole number from 0 to 100000, got "-1"'],
    [{ MAIL_CLAIM_SECONDS: '2' }, 'Invalid configuration: MAIL_CLAIM_SECONDS must be a whole number from 4 to 3600, got "2"'],
    [{ PUBLIC_URL: 'crm.firm.com' }, 'Invalid configuration: PUBLIC_URL must be a URL such as https://crm.example.com'],
    [
      { PUBLIC_URL: 'https://crm.firm.com/app' },
      'Invalid configuration: PUBLIC_URL must be just the origin, such as https://crm.example.com',
    ],
  ])('stop on %o with one clear line', (env, message) => {
    expect(() => parseConfig(env)).toThrowError(new ConfigError(message));
  });
});

describe('analytics retention', () => {
  it('reads LOG_FORMAT json or pretty (unset: the logger decides by the terminal) and refuses anything else', () => {
    expect(parseConfig({}).logFormat).toBeUndefined();
    expect(parseConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(parseConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => parseConfig({ LOG_FORMAT: 'xml' })).toThrow(ConfigError);
    expect(() => parseConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('keeps raw events 400 days unless ANALYTICS_RETENTION_DAYS says otherwise', () => {
    expect(parseConfig({}).analyticsRetentionDays).toBe(400);
    expect(parseConfig({ ANALYTICS_RETENTION_DAYS: '30' }).analyticsRetentionDays).toBe(30);
  });

  it.each(['0', '-5', '1.5', 'forever', '36501'])('stops on ANALYTICS_RETENTION_DAYS=%j with one clear line', (value) => {
    expect(() => parseConfig({ ANALYTICS_RETENTION_DAYS: value })).toThrowError(
      new ConfigError(`Invalid configuration: ANALYTICS_RETENTION_DAYS must be a whole number from 1 to 36500, got "${value}"`),
    );
  });
});
