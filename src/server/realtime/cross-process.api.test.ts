import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabaseUrl, testEngine } from '../test/database.ts';
import { signInOverHttp, startServer, stopServer, type ServerProcess } from '../test/process.ts';
import { sseReader } from '../test/sse.ts';

// Two app processes on one PostgreSQL: a lead submitted through A reaches a browser
// connected to B, through LISTEN/NOTIFY. Runs in the PostgreSQL leg (CI requires it).
const servers: ServerProcess[] = [];
let drop: (() => Promise<void>) | undefined;
afterAll(async () => {
  await Promise.all(servers.map((s) => stopServer(s)));
  await drop?.();
});

describe.runIf(testEngine === 'postgres')('realtime across processes', () => {
  it('delivers a notification created through process A to a stream on process B within a second', async () => {
    const db = await createPostgresDatabaseUrl();
    drop = db.drop;
    const env = {
      DATABASE_URL: db.url,
      ADMIN_EMAIL: 'fanout@example.com',
      ADMIN_PASSWORD: 'fanout-password',
      LEAD_MIN_FILL_SECONDS: '0',
      LEAD_RATE_LIMIT: '0',
    };
    const a = await startServer(env);
    servers.push(a);
    const b = await startServer(env);
    servers.push(b);

    const cookie = await signInOverHttp(b.url, { email: 'fanout@example.com', password: 'fanout-password' });
    const controller = new AbortController();
    const stream = sseReader(await fetch(`${b.url}/api/notifications/stream`, { headers: { cookie }, signal: controller.signal }));
    expect((await stream.next()).event).toBe('ready');

    const sentAt = Date.now();
    const submit = await fetch(`${a.url}/api/public/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        full_name: 'Across Processes',
        email: 'across@example.com',
        phone: '555',
        property_types: ['land'],
        submission_id: crypto.randomUUID(),
        fill_ms: 5000,
      }),
    });
    expect(submit.status).toBe(201);
    const event = await stream.next(1000);
    expect(Date.now() - sentAt).toBeLessThan(1000);
    expect(event.event).toBe('notification');
    expect(JSON.parse(event.data)).toMatchObject({ type: 'lead', message: 'New lead: Across Processes (across@example.com)' });
    controller.abort();
  });
});
