import { afterAll, describe, expect, it } from 'vitest';
import type { Availability } from '#shared/schemas/booking';
import { addDays, zonedParts } from '#shared/zoned-time';
import { createPostgresDatabaseUrl, testEngine } from '../test/database.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { signInOverHttp, startServer, stopServer, type ServerProcess } from '../test/process.ts';

// Two app processes on one PostgreSQL: 20 people confirm the same time, half through each
// process, at once. The database's no-overlap constraint gives it to one. PostgreSQL leg only.
const servers: ServerProcess[] = [];
let drop: (() => Promise<void>) | undefined;
afterAll(async () => {
  await Promise.all(servers.map((s) => stopServer(s)));
  await drop?.();
});

const post = (url: string, body: unknown, cookie?: string, method = 'POST') =>
  fetch(url, {
    method,
    headers: { 'content-type': 'application/json', origin: new URL(url).origin, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });

describe.runIf(testEngine === 'postgres')('booking across processes', () => {
  it('books one slot once when 20 people confirm it through two processes at the same moment', async () => {
    const db = await createPostgresDatabaseUrl();
    drop = db.drop;
    const env = {
      DATABASE_URL: db.url,
      ADMIN_EMAIL: 'race@example.com',
      ADMIN_PASSWORD: 'race-password',
      LEAD_MIN_FILL_SECONDS: '0',
      LEAD_RATE_LIMIT: '0',
      BUSINESS_TIME_ZONE: 'America/New_York',
      // 20 bookings from one address in a second: the website's booking limits off (booking-holds.api.test.ts tests them).
      BOOKING_RATE_LIMIT: '0',
      BOOKING_HOLD_ABOVE_PER_HOUR: '0',
    };
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    servers.push(a!, b!);
    const cookie = await signInOverHttp(a!.url, { email: 'race@example.com', password: 'race-password' });
    const saved = await post(`${a!.url}/api/booking-settings`, OPEN_EVERY_DAY, cookie, 'PUT');
    expect((await post(`${a!.url}/api/account/availability`, WORKS_EVERY_DAY, cookie, 'PUT')).status).toBe(200);
    expect(saved.status).toBe(200);

    const tokens = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await post(`${a!.url}/api/public/leads`, {
          full_name: `Racer ${i}`,
          email: `racer${i}@example.com`,
          phone: '555',
          property_types: ['land'],
          submission_id: crypto.randomUUID(),
          fill_ms: 5000,
        });
        return ((await res.json()) as { booking_token: string }).booking_token;
      }),
    );
    const date = addDays(zonedParts(Date.now(), 'America/New_York').date, 2);
    // Settings saved through A apply in B at once: B offers the same times.
    const slots = ((await (await fetch(`${b!.url}/api/public/availability?from=${date}&to=${date}`)).json()) as Availability).slots;
    expect(slots).toHaveLength(16);
    // Both processes have that day's open times cached now.
    const openIn = async (server: ServerProcess) =>
      ((await (await fetch(`${server.url}/api/public/availability?from=${date}&to=${date}`)).json()) as Availability).slots;
    expect(await openIn(a!)).toEqual(slots);
    const statuses = await Promise.all(
      tokens.map((token, i) =>
        post(`${(i % 2 ? a : b)!.url}/api/public/bookings`, { booking_token: token, start: slots[3], type: 'Call' }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    // Whichever process booked it, neither offers it any more, from the first request after.
    const left = slots.filter((s) => s !== slots[3]);
    expect([await openIn(a!), await openIn(b!)]).toEqual([left, left]);
    const list = await fetch(`${b!.url}/api/appointments?from=${date}&to=${date}`, { headers: { cookie } });
    expect(((await list.json()) as { appointments: unknown[] }).appointments).toHaveLength(1);
  });
});
