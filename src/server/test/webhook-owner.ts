import { sql } from 'drizzle-orm';
import { beforeEach } from 'vitest';
import { ensureAdmin } from '../auth/accounts.ts';
import type { Database } from '../db/client.ts';
import { execute } from '../db/sql.ts';
import { addEndpoint } from '../webhooks/add-endpoint.ts';
import { createTestApp } from './test-app.ts';

/**
 * For webhooks/' own tests, which call its actions directly (call at a test file's top level):
 * before each test, an owner on a cleared database and an app that may post to this machine's
 * loopback (OUTBOUND_ALLOW_HOSTS=127.0.0.1), with its credentials vault and webhook sender.
 */
export function useWebhookOwner(database: Database) {
  const parts = {} as { t: ReturnType<typeof createTestApp>; owner: string };
  beforeEach(async () => {
    await execute(
      database.db,
      sql`truncate users, sessions, leads, notifications, emails, audit_log, webhook_endpoints, webhook_events cascade`,
    );
    parts.t = createTestApp(database, { OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
    parts.owner = (await ensureAdmin(database.db, 'dana@keystone.test', 'dana-password', 'owner', 'Dana Whitfield')).user.id;
  });
  return Object.assign(parts, {
    /** An endpoint of the owner's at `url`, listening to `events`. */
    endpoint: (url = 'https://hooks.example.com/crm', events = ['lead.created']) =>
      addEndpoint(database.db, parts.t.vault, parts.t.config.outboundAllowHosts, { url, events, createdBy: parts.owner }),
  });
}
