import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { LIMITS, PASSWORD_MIN_LENGTH } from '#shared/constants';
import { defaultDisplayName, PROFILE_RULES } from '#shared/rules/profile';
import { emailSchema } from '#shared/schemas/lead';
import { zodText } from '#shared/schemas/text';
import { TrustedProxies } from './lib/client-address.ts';
import { parseCredentialsKey, type CredentialsKey } from './lib/credentials-key.ts';
import { parseImapUrl, parseMailbox, parseSmtpUrl, type ImapSettings, type Mailbox, type SmtpSettings } from './lib/mail-settings.ts';
import { parseAllowHosts, type AllowedHost } from './outbound/address-policy.ts';

/**
 * The whole environment, parsed once at start-up: nothing else reads process.env.
 * A bad value stops start-up with one line naming the variable.
 */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const intInRange = (min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const booleanFlag = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const s = (v ?? '').trim().toLowerCase();
    if (['', '0', 'false', 'off', 'no'].includes(s)) return false;
    if (['1', 'true', 'on', 'yes'].includes(s)) return true;
    ctx.addIssue({ code: 'custom', message: `must be on or off, got "${v}"` });
    return z.NEVER;
  });

/** on/off as booleanFlag, or a list of the proxies' addresses and CIDR ranges. */
const trustProxy = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const s = (v ?? '').trim().toLowerCase();
    if (['', '0', 'false', 'off', 'no'].includes(s)) return TrustedProxies.none;
    if (['1', 'true', 'on', 'yes'].includes(s)) return TrustedProxies.all;
    const list = TrustedProxies.parseList(v!);
    if (typeof list === 'string') {
      ctx.addIssue({ code: 'custom', message: list });
      return z.NEVER;
    }
    return list;
  });

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** A PEM file's certificates (IMAP_TLS_CA), read at start-up; a message when it cannot be read or holds none. */
function readCertificateFile(file: string): { pem: string } | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): give the path of a PEM file`;
  }
  return text.includes('-----BEGIN CERTIFICATE-----') ? { pem: text } : 'holds no certificate: give the path of a PEM file';
}

/** A value that a parser turns into T or rejects with a message. */
const parsedWith = <T>(parse: (value: string) => T | string) =>
  optionalString.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const result = parse(v);
    if (typeof result === 'string') {
      ctx.addIssue({ code: 'custom', message: result });
      return z.NEVER;
    }
    return result;
  });

function parsePublicUrl(value: string): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL such as https://crm.example.com';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must start with http:// or https://';
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username)
    return 'must be just the origin, such as https://crm.example.com';
  return url;
}

const envSchema = z.object({
  NODE_ENV: optionalString,
  PORT: intInRange(0, 65535, 3000),
  HOST: optionalString.transform((v) => v ?? '127.0.0.1'),
  DATA_DIR: optionalString.transform((v) => path.resolve(v ?? './data')),
  DATABASE_URL: optionalString.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        const u = new URL(v);
        return u.protocol === 'postgres:' || u.protocol === 'postgresql:';
      } catch {
        return false;
      }
    },
    { message: 'must be a postgres:// or postgresql:// URL' },
  ),
  ADMIN_EMAIL: optionalString.pipe(emailSchema.optional()),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .refine((v) => v === undefined || v.length === 0 || v.length >= PASSWORD_MIN_LENGTH, {
      message: `must be at least ${PASSWORD_MIN_LENGTH} characters`,
    })
    .refine((v) => v === undefined || v.length <= 1024, { message: 'must be at most 1024 characters' }),
  // The ADMIN_EMAIL account's name; without it, the part of the email before the @.
  ADMIN_NAME: optionalString.pipe(zodText(PROFILE_RULES.display_name).optional()),
  SITE_NAME: optionalString.transform((v) => v ?? 'Keystone Due Diligence').pipe(z.string().max(100)),
  SITE_EMAIL: optionalString.transform((v) => v ?? 'info@example.com').pipe(emailSchema),
  SITE_PHONE: optionalString.transform((v) => v ?? '(301) 555-0100').pipe(z.string().max(LIMITS.phone)),
  BUSINESS_TIME_ZONE: optionalString
    .transform((v) => v ?? 'America/New_York')
    .refine(isTimeZone, { message: 'must be an IANA time zone such as America/New_York' }),
  LEAD_RATE_LIMIT: intInRange(0, 1_000_000, 10),
  LEAD_MIN_FILL_SECONDS: intInRange(0, 3600, 2),
  BOOKING_RATE_LIMIT: intInRange(0, 1_000_000, 2),
  BOOKING_HOLD_ABOVE_PER_HOUR: intInRange(0, 1_000_000, 6),
  ANALYTICS_RATE_LIMIT: intInRange(0, 10_000_000, 600),
  AVAILABILITY_RATE_LIMIT: intInRange(0, 1_000_000, 120),
  API_KEY_RATE_LIMIT: intInRange(0, 10_000_000, 600),
  ANALYTICS_RETENTION_DAYS: intInRange(1, 36_500, 400),
  AUDIT_RETENTION_DAYS: intInRange(30, 36_500, 730),
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters (a random secret)').max(256).optional()),
  TRUST_PROXY: trustProxy,
  REMINDER_MINUTES_BEFORE: intInRange(1, 7 * 24 * 60, 60),
  PUBLIC_URL: parsedWith(parsePublicUrl),
  OUTBOUND_ALLOW_HOSTS: parsedWith(parseAllowHosts),
  CREDENTIALS_KEY: parsedWith(parseCredentialsKey),
  CREDENTIALS_KEY_PREVIOUS: parsedWith(parseCredentialsKey),
  SMTP_URL: parsedWith(parseSmtpUrl),
  MAIL_FROM: parsedWith(parseMailbox),
  MAIL_REPLY_TO: parsedWith(parseMailbox),
  LEAD_REMINDER_HOURS: intInRange(0, 7 * 24, 24),
  PUBLIC_MAIL_PER_ADDRESS_PER_DAY: intInRange(0, 1000, 5),
  MAIL_RETRY_SECONDS: intInRange(1, 3600, 10),
  MAIL_CLAIM_SECONDS: intInRange(4, 3600, 30),
  WEBHOOK_LEASE_SECONDS: intInRange(2, 3600, 60),
  LEAD_EMAIL_PER_HOUR: intInRange(0, 100_000, 100),
  IMAP_URL: parsedWith(parseImapUrl),
  IMAP_TLS_CA: parsedWith(readCertificateFile),
  IMAP_POLL_SECONDS: intInRange(1, 3600, 15),
  IMAP_AUTHSERV_ID: optionalString.pipe(
    z
      .string()
      .max(253)
      .regex(/^[A-Za-z0-9.-]+$/, 'must be a host name such as mx.firm.com')
      .optional(),
  ),
  IMAP_FIRST_DAYS: intInRange(0, 3650, 14),
  DEBUG: booleanFlag,
  LOG_LEVEL: optionalString.transform((v) => v ?? 'info').pipe(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])),
  LOG_FORMAT: optionalString.pipe(z.enum(['json', 'pretty']).optional()),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The account ADMIN_EMAIL creates at start-up (name: ADMIN_NAME, else the email's part before the @). */
  admin: { email: string; password: string; name: string } | undefined;
  site: { name: string; email: string; phone: string };
  businessTimeZone: string;
  leadRateLimit: number;
  leadMinFillSeconds: number;
  /**
   * Website bookings per client address (rateLimitKey) per day; the address's network
   * (networkKey: IPv4 /24, IPv6 /64) gets five times as many. 0 = no limit (BOOKING_RATE_LIMIT).
   */
  bookingRateLimit: number;
  /**
   * Website bookings per hour, firm-wide, above which a new one is held until the visitor
   * confirms it from an email; 0 = never held for this reason (BOOKING_HOLD_ABOVE_PER_HOUR).
   */
  bookingHoldAbovePerHour: number;
  /** Analytics events per client IP per minute, per app process; 0 = no limit. */
  analyticsRateLimit: number;
  /** GET /api/public/availability requests per client address per minute, shared by every process; 0 = no limit. */
  availabilityRateLimit: number;
  /** Requests per API key per minute, shared by every process; 0 = no limit. */
  apiKeyRateLimit: number;
  /** Raw analytics events older than this many days are deleted (the rollups stay). */
  analyticsRetentionDays: number;
  /** Audit log entries older than this many days are deleted by a daily job (AUDIT_RETENTION_DAYS, 2 years by default). */
  auditRetentionDays: number;
  /** GET /metrics (Prometheus) answers only with this bearer token; off when unset (METRICS_TOKEN). */
  metricsToken: string | undefined;
  /** Whose X-Forwarded-For and X-Forwarded-Proto/Host to believe (TRUST_PROXY: off, on, or a list). */
  trustProxy: TrustedProxies;
  reminderMinutesBefore: number;
  /**
   * The address people use to reach this server, for links in emails (PUBLIC_URL); without
   * it, this server's own http://HOST:PORT.
   */
  publicUrl: string;
  /**
   * PUBLIC_URL's origin when it is set: the only origin the CSRF check accepts, the only Host
   * answered (others get 421), and the base of every link. Undefined: the request's own origin.
   */
  fixedOrigin: string | undefined;
  /**
   * Hosts that requests for URLs people typed (calendar links, CalDAV servers) may reach even
   * on a private or local address (OUTBOUND_ALLOW_HOSTS; see outbound/guarded-fetch.ts).
   */
  outboundAllowHosts: readonly AllowedHost[];
  /**
   * The key that seals the passwords of connected calendars (CREDENTIALS_KEY); unset: with the
   * embedded database, DATA_DIR/credentials.key (lib/credentials.ts). Printed, it shows only its id.
   */
  credentialsKey: CredentialsKey | undefined;
  /** A key that still opens what it sealed, while rotate-credentials-key moves everything to the new one (CREDENTIALS_KEY_PREVIOUS). */
  credentialsKeyPrevious: CredentialsKey | undefined;
  /**
   * Seconds a webhook delivery a process took stays its own (WEBHOOK_LEASE_SECONDS): one a
   * killed process left is sent again by another process once they are over.
   */
  webhookLeaseSeconds: number;
  mail: {
    /** Undefined: email is off, and messages are recorded but not sent. */
    smtp: SmtpSettings | undefined;
    from: Mailbox;
    replyTo: Mailbox | undefined;
    /** The domain of the sender's address: it names every Message-ID and appointment UID. */
    domain: string;
    /** Hours before an appointment the lead is reminded by email; 0 = never. */
    leadReminderHours: number;
    /** Emails website visitors may cause to one outside address in 24 hours; 0 = no budget (docs/security.md). */
    publicPerAddressPerDay: number;
    /** Seconds the outbox waits to try again when the mail server cannot be reached (or refuses our login). */
    retrySeconds: number;
    /**
     * Seconds a message a process took to send stays its own: one it left unsent (the process
     * died while sending) is sent by another process, or after a restart, once they are over.
     */
    claimSeconds: number;
    /** Messages one person may write to leads (sent or sent again) per hour, counted across processes; 0 = no limit. */
    leadMessagesPerHour: number;
    /** Undefined: replies are not read (IMAP_URL unset). */
    imap: ImapSettings | undefined;
    /** Certificates (PEM) to trust for the IMAP server besides the system's: a firm's own CA (IMAP_TLS_CA). */
    imapCa: string | undefined;
    /** Seconds between two looks at the reply mailbox (IMAP_POLL_SECONDS). */
    imapPollSeconds: number;
    /** The authserv-id of the firm's own mail host (IMAP_AUTHSERV_ID): only its Authentication-Results are believed. */
    imapAuthservId: string | undefined;
    /** How far back the reader goes the first time it reads a mailbox (IMAP_FIRST_DAYS), so an old inbox is not imported whole. */
    imapFirstDays: number;
  };
  logLevel: string;
  /** 'json' or 'pretty'; unset: lines for people in a terminal, JSON otherwise (logger.ts). */
  logFormat: 'json' | 'pretty' | undefined;
  /** Command-line tools print the stack of an unexpected error. */
  debug: boolean;
  /** Check every query's rows against their schema (NODE_ENV development or test): see db/sql.ts. */
  rowChecks: boolean;
  /** A database whose clock a test set (crm.test_now) may be opened: NODE_ENV test only (db/test-clock-guard.ts). */
  testClockAllowed: boolean;
};

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const e = parsed.data;
  const hasEmail = e.ADMIN_EMAIL !== undefined;
  const hasPassword = e.ADMIN_PASSWORD !== undefined && e.ADMIN_PASSWORD.length > 0;
  if (hasEmail !== hasPassword) {
    throw new ConfigError('Invalid configuration: ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if (e.ADMIN_NAME !== undefined && !hasEmail)
    throw new ConfigError('Invalid configuration: ADMIN_NAME names the ADMIN_EMAIL account: set ADMIN_EMAIL too');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    admin:
      hasEmail && hasPassword
        ? { email: e.ADMIN_EMAIL!, password: e.ADMIN_PASSWORD!, name: e.ADMIN_NAME ?? defaultDisplayName(e.ADMIN_EMAIL!) }
        : undefined,
    site: { name: e.SITE_NAME, email: e.SITE_EMAIL, phone: e.SITE_PHONE },
    businessTimeZone: e.BUSINESS_TIME_ZONE,
    leadRateLimit: e.LEAD_RATE_LIMIT,
    leadMinFillSeconds: e.LEAD_MIN_FILL_SECONDS,
    bookingRateLimit: e.BOOKING_RATE_LIMIT,
    bookingHoldAbovePerHour: e.BOOKING_HOLD_ABOVE_PER_HOUR,
    analyticsRateLimit: e.ANALYTICS_RATE_LIMIT,
    availabilityRateLimit: e.AVAILABILITY_RATE_LIMIT,
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
    analyticsRetentionDays: e.ANALYTICS_RETENTION_DAYS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    metricsToken: e.METRICS_TOKEN,
    trustProxy: e.TRUST_PROXY,
    reminderMinutesBefore: e.REMINDER_MINUTES_BEFORE,
    publicUrl: e.PUBLIC_URL?.origin ?? ownOrigin(e.HOST, e.PORT),
    fixedOrigin: e.PUBLIC_URL?.origin,
    outboundAllowHosts: e.OUTBOUND_ALLOW_HOSTS ?? [],
    credentialsKey: e.CREDENTIALS_KEY,
    credentialsKeyPrevious: e.CREDENTIALS_KEY_PREVIOUS,
    webhookLeaseSeconds: e.WEBHOOK_LEASE_SECONDS,
    mail: {
      smtp: e.SMTP_URL,
      from: e.MAIL_FROM ?? { name: e.SITE_NAME, address: e.SITE_EMAIL },
      replyTo: e.MAIL_REPLY_TO,
      domain: (e.MAIL_FROM?.address ?? e.SITE_EMAIL).split('@')[1]!,
      leadReminderHours: e.LEAD_REMINDER_HOURS,
      publicPerAddressPerDay: e.PUBLIC_MAIL_PER_ADDRESS_PER_DAY,
      retrySeconds: e.MAIL_RETRY_SECONDS,
      claimSeconds: e.MAIL_CLAIM_SECONDS,
      leadMessagesPerHour: e.LEAD_EMAIL_PER_HOUR,
      imap: e.IMAP_URL,
      imapCa: e.IMAP_TLS_CA?.pem,
      imapPollSeconds: e.IMAP_POLL_SECONDS,
      imapAuthservId: e.IMAP_AUTHSERV_ID,
      imapFirstDays: e.IMAP_FIRST_DAYS,
    },
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    debug: e.DEBUG,
    rowChecks: e.NODE_ENV === 'development' || e.NODE_ENV === 'test',
    testClockAllowed: e.NODE_ENV === 'test',
  };
}

/**
 * This server's own address without PUBLIC_URL: http://HOST:PORT, with a wildcard host read
 * as this machine (127.0.0.1). With PORT=0 the port is known only once listening, so the
 * server calls this again then.
 */
export function ownOrigin(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
