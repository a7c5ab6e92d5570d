import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabaseUrl, testEngine } from '../test/database.ts';
import { signInOverHttp, startServer, stopServer, type ServerProcess } from '../test/process.ts';

// Two app processes on one PostgreSQL, with the time trap on: a form token handed out by one
// is good in the other, and still good after a restart, for one submission in all of them.
// PostgreSQL leg only.
const servers: ServerProcess[] = [];
let drop: (() => Promise<void>) | undefined;
afterAll(async () => {
  await Promise.all(servers.map((s) => stopServer(s)));
  await drop?.();
});

const ADMIN = { email: 'tokens@example.com', password: 'tokens-password' };
const formToken = async (url: string) =>
  ((await (await fetch(`${url}/api/public/form-token`)).json()) as { form_token: string }).form_token;
const submit = (url: string, name: string, form_token: string, submission_id: string = crypto.randomUUID()) =>
  fetch(`${url}/api/public/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      full_name: name,
      email: `tokens+${name.replace(/\W+/g, '-').toLowerCase()}@example.com`,
      phone: '555',
      property_types: ['land'],
      website: '',
      submission_id,
      form_token,
    }),
  });
const storedNames = async (url: string) => {
  const cookie = await signInOverHttp(url, ADMIN);
  const res = await fetch(`${url}/api/leads?search=tokens%2B`, { headers: { cookie } });
  return ((await res.json()) as { leads: { full_name: string }[] }).leads.map((l) => l.full_name).sort();
};

describe.runIf(testEngine === 'postgres')('the lead form token across processes', () => {
  it('is signed with one secret by every process on the database, and outlives a restart', async () => {
    const db = await createPostgresDatabaseUrl();
    drop = db.drop;
    const env = {
      DATABASE_URL: db.url,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LEAD_MIN_FILL_SECONDS: '1',
      LEAD_RATE_LIMIT: '0',
    };
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    servers.push(a!, b!);

    // Both processes make the secret at once, on a database that has none yet.
    const [fromA, fromB, spare] = await Promise.all([formToken(a!.url), formToken(b!.url), formToken(a!.url)]);
    // Sent at once, each is too young where it lands: answered as success, not stored.
    expect((await submit(b!.url, 'Too Quick', fromA)).status).toBe(201);
    // The minimum is a second of the server's clock: a visitor takes that long to type. A real
    // wait: the servers are processes of their own, whose clocks a test cannot move.
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await submit(b!.url, 'Token From A', fromA)).status).toBe(201);
    const submissionB = crypto.randomUUID();
    expect((await submit(a!.url, 'Token From B', fromB, submissionB)).status).toBe(201);
    // A token serves one submission, whichever process it is sent to next.
    const replay = await submit(b!.url, 'Replayed Token', fromB);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: { fields: Record<string, string> } }).error.fields).toHaveProperty('form_token');
    expect((await submit(a!.url, 'Replayed Token', fromA)).status).toBe(400);

    // A restarted process still reads the tokens handed out before.
    await stopServer(a!);
    servers.splice(servers.indexOf(a!), 1);
    const c = await startServer(env);
    servers.push(c);
    expect((await submit(c.url, 'Token From B After Restart', spare)).status).toBe(201);
    expect((await submit(c.url, 'Replayed After Restart', fromB)).status).toBe(400);
    // The same submission sent again (its answer was lost) still gets its 201, stored once.
    expect((await submit(c.url, 'Token From B', fromB, submissionB)).status).toBe(201);

    expect(await storedNames(c.url)).toEqual(['Token From A', 'Token From B', 'Token From B After Restart']);
    // Three server starts: about 28 s on a shared 2-core machine under load, so more than the default 30 s.
  }, 90_000);
});
