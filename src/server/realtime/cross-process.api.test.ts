import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabaseUrl, testEngine } from '../test/database.ts';
import { signInOverHttp, sourceArgs, startServer, stopServer, type ServerProcess } from '../test/process.ts';
import { sseReader } from '../test/sse.ts';

// Two app processes on one PostgreSQL: a lead submitted through A reaches a browser
// connected to B, through LISTEN/NOTIFY. Runs in the PostgreSQL leg (CI requires it).
const servers: ServerProcess[] = [];
let drop: (() => Promise<void>) | undefined;
let databaseUrl = '';
afterAll(async () => {
  await Promise.all(servers.map((s) => stopServer(s)));
  await drop?.();
});

describe.runIf(testEngine === 'postgres')('realtime across processes', () => {
  it('delivers a notification created through process A to a stream on process B within a second', async () => {
    const db = await createPostgresDatabaseUrl();
    drop = db.drop;
    databaseUrl = db.url;
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

  /** Opens a stream on `url` for a fresh sign-in; resolves once it has said `ready`. */
  async function openStream(url: string, cookie: string) {
    const stream = sseReader(await fetch(`${url}/api/notifications/stream`, { headers: { cookie } }));
    expect((await stream.next()).event).toBe('ready');
    return stream;
  }
  const submitLead = (url: string, name: string) =>
    fetch(`${url}/api/public/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        full_name: name,
        email: 'after@example.com',
        phone: '555',
        property_types: ['land'],
        submission_id: crypto.randomUUID(),
        fill_ms: 5000,
      }),
    });

  it('ends a stream on process B within a few seconds of its session signing out through process A, delivering nothing after', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const cookie = await signInOverHttp(b.url, { email: 'fanout@example.com', password: 'fanout-password' });
    const stream = await openStream(b.url, cookie);
    const started = Date.now();
    expect((await fetch(`${a.url}/api/auth/logout`, { method: 'POST', headers: { cookie, origin: a.url } })).status).toBe(200);
    expect((await submitLead(a.url, 'After Sign Out Elsewhere')).status).toBe(201);
    // The default session check runs every 5 s; the heartbeat (25 s) no longer decides.
    await expect(stream.next(10_000)).rejects.toThrow('SSE stream ended');
    expect(Date.now() - started).toBeLessThan(6_500);
  });

  it('ends a stream within a few seconds of npm run admin -- reset-password, run as its own process', async () => {
    const [, b] = servers as [ServerProcess, ServerProcess];
    const cookie = await signInOverHttp(b.url, { email: 'fanout@example.com', password: 'fanout-password' });
    const stream = await openStream(b.url, cookie);
    // As an operator runs it: the password on stdin.
    const reset = spawn(process.execPath, [...sourceArgs('src/server/cli/admin.ts'), 'reset-password', 'fanout@example.com'], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    reset.stdin.end('fanout-password-2\n');
    expect(await new Promise((resolve) => reset.on('exit', resolve))).toBe(0);
    const started = Date.now();
    await expect(stream.next(10_000)).rejects.toThrow('SSE stream ended');
    expect(Date.now() - started).toBeLessThan(6_500);
  });
});
