import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../auth/accounts.ts';
import { DEPLOYMENT_WARNINGS } from '../http/deployment-warnings.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { useTestDatabase } from '../test/database.ts';

const database = useTestDatabase();
beforeAll(async () => {
  await ensureAdmin(database.db, 'olive@example.com', 'olive-password');
});

/** A test app whose warn lines are kept. */
function appWithLog(env: Record<string, string> = {}) {
  const lines: { code?: string; msg: string }[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as { code?: string; msg: string }) });
  return { ...createTestApp(database, env, { logger }), lines };
}

describe('deployment warnings', () => {
  it('a proxy TRUST_PROXY does not trust: one warning in the log, and owners see it', async () => {
    const t = appWithLog();
    const owner = await signIn(t.json, 'olive@example.com', 'olive-password');
    expect((await (await t.json('GET', '/api/settings/deployment', undefined, { cookie: owner })).json()) as unknown).toEqual({
      warnings: [],
    });
    for (let i = 0; i < 3; i++) await t.json('GET', '/api/health', undefined, { 'x-forwarded-for': `203.0.113.${i}` });
    const body = (await (await t.json('GET', '/api/settings/deployment', undefined, { cookie: owner })).json()) as {
      warnings: { code: string; message: string }[];
    };
    expect(body.warnings).toEqual([{ code: 'untrusted_proxy', message: DEPLOYMENT_WARNINGS.untrusted_proxy }]);
    expect(t.lines.filter((l) => l.code === 'untrusted_proxy')).toHaveLength(1);
  });

  it('with TRUST_PROXY set, forwarded requests are fine; plain http from another host is not', async () => {
    const t = appWithLog({ TRUST_PROXY: '1' });
    await t.json('GET', '/api/health', undefined, { 'x-forwarded-for': '203.0.113.9' });
    expect(t.lines).toHaveLength(0);
    await t.app.request('http://crm.example.com/api/health', { headers: { host: 'crm.example.com' } });
    // Through the proxy over https: no warning.
    const https = appWithLog({ TRUST_PROXY: '1' });
    await https.app.request('http://crm.example.com/api/health', {
      headers: { host: 'crm.example.com', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
    });
    expect(https.lines).toHaveLength(0);
    expect(t.lines.map((l) => l.code)).toEqual(['plain_http']);
  });

  it('replies read without IMAP_AUTHSERV_ID: warned in the log at start, and owners see it; with it set, nothing', async () => {
    const imap = { IMAP_URL: 'imap://replies:secret@127.0.0.1:1/INBOX' };
    const t = appWithLog(imap);
    expect(t.lines.map((l) => l.code)).toEqual(['replies_unverified']);
    const owner = await signIn(t.json, 'olive@example.com', 'olive-password');
    const body = (await (await t.json('GET', '/api/settings/deployment', undefined, { cookie: owner })).json()) as {
      warnings: { code: string; message: string }[];
    };
    expect(body.warnings).toEqual([{ code: 'replies_unverified', message: DEPLOYMENT_WARNINGS.replies_unverified }]);
    expect(appWithLog({ ...imap, IMAP_AUTHSERV_ID: 'mx.keystone.test' }).lines).toEqual([]);
    expect(appWithLog().lines).toEqual([]);
  });
});
