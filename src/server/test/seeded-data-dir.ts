import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { DEFAULT_BOOKING_SETTINGS } from '#shared/schemas/booking';
import { ensureAdmin } from '../auth/accounts.ts';
import { parseConfig } from '../config.ts';
import { seedDemo } from '../cli/demo-seed.ts';
import type { Db } from '../db/client.ts';
import { openConfiguredDatabase } from '../db/open.ts';
import { appSecret } from '../db/queries/app-secrets-queries.ts';
import { saveBookingSettings } from '../db/queries/bookings-queries.ts';
import { mintToken } from '../lib/secret-token.ts';
import { saveWebsiteContent } from '../db/queries/website-queries.ts';
import { defaultWebsiteContent } from '#shared/website-content';
import { createCalendarFeed } from '../db/queries/calendar-feeds-queries.ts';
import { calendarSecretContext, webhookSecretContext } from '../db/sealed-secrets.ts';
import { loadCredentialsVault } from '../lib/credentials.ts';
import { sendDueReminders } from '../db/queries/reminders-queries.ts';
import { createSession } from '../db/queries/sessions-queries.ts';
import { rememberSignInIp } from '../db/queries/sign-in-ips-queries.ts';
import { execute } from '../db/sql.ts';
import { migratedDataDir, tempDir } from './process.ts';

/** The second admin every seeded data directory has (a password sign-in works with it). */
export const SEEDED_ADMIN = { email: 'second-admin@example.com', password: 'second-password' };

/** The first seeded directory of this test file, kept as it was seeded: later calls copy it. */
let pristine: string | undefined;

/**
 * A data directory with rows in every table: the demo data plus sessions, a feed, a rate limit, a usual sign-in IP, reminders, booking settings, a link and its held booking, a used form token, a visitor mail spent, a connected calendar, and the reply mailbox's replies, Inbox and erased sender.
 * Seeding takes seconds, so it runs once per test file; each call gets its own copy (the same
 * rows, and the same credentials key file, which the copied calendar's link is sealed with),
 * then `more`.
 */
export async function seededDataDir(more?: (db: Db) => Promise<void>): Promise<string> {
  if (!pristine || !existsSync(path.join(pristine, 'PG_VERSION'))) pristine = await seed(migratedDataDir('seeded-pristine'));
  const dataDir = tempDir('seeded-data');
  execFileSync('cp', ['-a', `${pristine}/.`, dataDir], { stdio: 'pipe' });
  if (more) {
    const database = await openConfiguredDatabase(parseConfig({ DATA_DIR: dataDir }), 'test seed');
    try {
      await more(database.db);
    } finally {
      await database.close();
    }
  }
  return dataDir;
}

async function seed(dataDir: string): Promise<string> {
  const config = parseConfig({ DATA_DIR: dataDir });
  const database = await openConfiguredDatabase(config, 'test seed');
  try {
    await seedDemo(database.db, config);
    const { user } = await ensureAdmin(database.db, SEEDED_ADMIN.email, SEEDED_ADMIN.password);
    await createSession(database.db, user.id);
    await createCalendarFeed(database.db, user.id);
    // Written straight, to last a day: a counter of the current hour's window expires at the next
    // hour, and a server started on a copy just after it deletes it (the maintenance job).
    await execute(
      database.db,
      sql`insert into rate_limits (key, window_start, count, expires_at) values ('lead:203.0.113.9', crm_now(), 1, crm_now() + interval '1 day')`,
    );
    await rememberSignInIp(database.db, user.id, '203.0.113.9');
    await appSecret(database.db, 'lead_form_token');
    await saveBookingSettings(database.db, { ...DEFAULT_BOOKING_SETTINGS, days_off: ['2030-12-25'] });
    await saveWebsiteContent(database.db, { ...defaultWebsiteContent('Seeded Diligence LLC'), headline: 'A seeded headline' });
    const link = mintToken().hash;
    await execute(
      database.db,
      sql`insert into booking_tokens (token_hash, lead_id, expires_at) select ${link}, id, crm_now() + interval '1 day' from leads limit 1`,
    );
    // The website's abuse controls: a booking held for its emailed confirmation, a used form token, a visitor mail spent.
    await execute(
      database.db,
      sql`insert into booking_holds (token_hash, confirm_hash, date, time, type, client_network, expires_at)
      values (${link}, 'confirm-hash', '2030-12-02', '10:00', 'Call', '203.0.113.0/24', crm_now() + interval '30 minutes')`,
    );
    await execute(
      database.db,
      sql`insert into form_token_uses (token_hash, submission_id, expires_at) values ('form-token-hash', ${crypto.randomUUID()}, crm_now() + interval '1 day')`,
    );
    await execute(database.db, sql`insert into public_mail_spends (address_key, kind) values ('address-hash', 'lead-acknowledgement')`);
    // The team's tables: an invitation, a recovery code, a remembered device, a two-factor challenge, an audit entry.
    await execute(
      database.db,
      sql`insert into account_tokens (token_hash, kind, email, role, expires_at) values ('invite-hash', 'invite', 'new@example.com', 'staff', crm_now() + interval '3 days')`,
    );
    await execute(database.db, sql`insert into recovery_codes (user_id, code_hash) values (${user.id}, 'code-hash')`);
    await execute(
      database.db,
      sql`insert into trusted_devices (token_hash, user_id, expires_at) values ('device-hash', ${user.id}, crm_now() + interval '30 days')`,
    );
    await execute(
      database.db,
      sql`insert into sign_in_challenges (token_hash, user_id, expires_at) values ('challenge-hash', ${user.id}, crm_now() + interval '1 day')`,
    );
    // A message the outbox sent already (so a server started on the data sends nothing).
    await execute(
      database.db,
      sql`insert into emails (message_id, kind, to_address, data, status, sent_at) values ('<seeded@example.com>', 'test', 'owner@example.com', '{}', 'sent', crm_now())`,
    );
    await execute(
      database.db,
      sql`insert into audit_log (actor_id, actor_email, action) values (${user.id}, 'second-admin@example.com', 'sign_in')`,
    );
    // The reply mailbox: the reader's place, a reply with a file on a lead's page, one in the Inbox, an erased sender.
    await execute(
      database.db,
      sql`insert into mail_readers (mailbox, uidvalidity, last_uid) values ('imap://replies@127.0.0.1:1/INBOX', 7, 2)`,
    );
    await execute(
      database.db,
      sql`with m as (
            insert into inbound_emails (mailbox, uidvalidity, uid, message_id, from_address, from_name, subject, body, lead_id, matched_by)
            select 'imap://replies@127.0.0.1:1/INBOX', 7, 1, '<seeded-reply@example.com>', l.email, l.full_name, 'Re: your call', 'Thursday works.', l.id, 'sender'
            from leads l order by l.created_at limit 1 returning id)
          insert into inbound_attachments (email_id, filename, content_type, size, content) select id, 'plan.pdf', 'application/pdf', 4, '\\x25504446'::bytea from m`,
    );
    await execute(
      database.db,
      sql`insert into inbound_emails (mailbox, uidvalidity, uid, from_address, subject, body) values ('imap://replies@127.0.0.1:1/INBOX', 7, 2, 'someone@example.org', 'A question', 'Do you do Phase I?')`,
    );
    await execute(database.db, sql`insert into erased_senders (address_hash) values (repeat('a', 64))`);
    await execute(database.db, sql`insert into erased_messages (message_hash) values (repeat('b', 64))`);
    // A connected calendar (its link sealed with the data directory's key file) and a busy time read from it.
    const vault = loadCredentialsVault({ ...config, credentialsKey: undefined, credentialsKeyPrevious: undefined });
    if (!vault.available) throw new Error(vault.reason);
    const connection = crypto.randomUUID();
    const secret = vault.seal(JSON.stringify({ url: 'https://calendar.example.com/seeded.ics' }), calendarSecretContext(connection));
    await execute(
      database.db,
      sql`insert into calendar_connections (id, user_id, kind, label, secret, last_synced_at, last_attempt_at)
      values (${connection}, ${user.id}, 'ics', 'calendar.example.com', ${secret}, crm_now(), crm_now())`,
    );
    await execute(
      database.db,
      sql`insert into calendar_busy (connection_id, user_id, starts_at, ends_at)
      values (${connection}, ${user.id}, '2030-12-03T15:00:00Z', '2030-12-03T16:00:00Z')`,
    );
    // A booked call's copy as written into a calendar (written: not due, so no server writes it while a test runs).
    await execute(
      database.db,
      sql`insert into calendar_writes (appointment_id, connection_id, uid, event_url, version, written_version)
      select a.id, ${connection}, a.id || '@keystone.test', 'https://calendar.example.com/work/' || a.id || '.ics', 1, 1
      from appointments a order by a.id limit 1`,
    );
    // An API key, and a paused webhook endpoint (nothing is sent from the seeded server) with one
    // event delivered to it and its log.
    await execute(
      database.db,
      sql`insert into api_keys (name, key_hash, prefix, scopes, user_id, last_used_at, last_used_ip)
      values ('Partner form', repeat('c', 64), 'crm_seeded00', '{leads:write}', ${user.id}, crm_now(), '203.0.113.9')`,
    );
    const endpoint = crypto.randomUUID();
    const endpointSecret = vault.seal('whsec_c2VlZGVkLXNlY3JldC1mb3ItdGVzdHM=', webhookSecretContext(endpoint));
    await execute(
      database.db,
      sql`insert into webhook_endpoints (id, url, events, secret, paused_at, paused_reason, created_by)
      values (${endpoint}, 'https://hooks.example.com/crm', '{lead.created}', ${endpointSecret}, crm_now(), 'Paused by an owner', ${user.id})`,
    );
    await execute(
      database.db,
      sql`with event as (
        insert into webhook_events (type, object_id, lead_id, payload, routed)
        select 'lead.created', id, id, '{"type":"lead.created"}', true from leads order by created_at limit 1
        returning id, seq, object_id
      ), delivery as (
        insert into webhook_deliveries (endpoint_id, event_id, object_id, event_seq, status, attempts, last_status, finished_at)
        select ${endpoint}, id, object_id, seq, 'delivered', 1, 200, crm_now() from event
        returning id
      )
      insert into webhook_attempts (delivery_id, endpoint_id, http_status, duration_ms, response_body)
      select id, ${endpoint}, 200, 42, 'ok' from delivery`,
    );
    // Every reminder due in the coming week is sent now, so the server's reminder job adds none while the test runs.
    await sendDueReminders(database.db, config.businessTimeZone, 7 * 24 * 60);
  } finally {
    await database.close();
  }
  return dataDir;
}
