import { describe, expect, it } from 'vitest';
import { ensureAdmin } from '../auth/accounts.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { useTestDatabase } from '../test/database.ts';

const database = useTestDatabase();
const TOKEN = 'metrics-token-0123456789abcdef';

describe('GET /metrics', () => {
  it('is not there without METRICS_TOKEN', async () => {
    const t = createTestApp(database);
    expect((await t.app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('needs the token, then counts requests by route pattern and status, with the outbox, streams and analytics batches', async () => {
    const t = createTestApp(database, { METRICS_TOKEN: TOKEN, PUBLIC_URL: 'https://crm.example.com' });
    expect((await t.app.request('/metrics')).status).toBe(401);
    expect((await t.app.request('/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789abcdef' } })).status).toBe(401);

    await ensureAdmin(database.db, 'metrics-admin@example.com', 'metrics-password');
    const cookie = await signIn(t.json, 'metrics-admin@example.com', 'metrics-password');
    await t.json('POST', '/api/public/leads', validLead({ email: 'metrics-lead@example.com' }));
    for (const id of ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'])
      await t.json('GET', `/api/leads/${id}`, undefined, { cookie });

    // Scraped at the server's own address, whatever PUBLIC_URL says.
    const res = await t.app.request('http://127.0.0.1/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('crm_http_requests_total{method="GET",route="/api/leads/:id",status="404"} 2');
    expect(text).toContain('crm_http_requests_total{method="POST",route="/api/public/leads",status="201"} 1');
    expect(text).toMatch(/crm_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/leads\/:id"\} \d/);
    expect(text).toMatch(/crm_email_outbox_queued \d+/);
    expect(text).toContain('crm_notification_streams_open 0');
    expect(text).toMatch(/crm_analytics_event_batches_written \d+/);
    expect(text).toMatch(/crm_process_cpu_user_seconds_total/);
    if (database.kind === 'postgres') expect(text).toMatch(/crm_db_pool_connections\{state="total"\} [1-9]/);
    else expect(text).not.toContain('crm_db_pool_connections{'); // the embedded database has no pool
    // The raw ids never become labels.
    expect(text).not.toContain('00000000-0000-4000-8000-000000000001');
  });
});
