import pino, { type Logger } from 'pino';
import { createApp } from '../app.ts';
import { FirstRunLink } from '../lib/first-run-link.ts';
import { parseConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { EventRecorder } from '../analytics/event-recorder.ts';
import { PublicAvailability } from '../booking/public-availability.ts';
import { RequestRate } from '../lib/request-rate.ts';
import { outboxWorker } from '../jobs/registry.ts';
import { startWorker } from '../jobs/worker.ts';
import { loadCredentialsVault } from '../lib/credentials.ts';
import { createOutbox } from '../mail/mail-context.ts';
import { createReader } from '../conversations/reply-reader.ts';
import { NotificationHub } from '../realtime/notification-hub.ts';
import { WebhookSender } from '../webhooks/sender.ts';

/** The credentials key of test apps: 32 bytes, base64 (not secret; tests only). */
export const TEST_CREDENTIALS_KEY = Buffer.alloc(32, 7).toString('base64');

/** The real app on a test database, with the environment the test names (and a built client, if given). */
export function createTestApp(
  database: Database | undefined,
  env: Record<string, string> = {},
  { clientDir, logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }) }: { clientDir?: string; logger?: Logger } = {},
) {
  // The booking limits off too, as for the lead form: the tests of those limits turn them on.
  const config = parseConfig({
    LEAD_MIN_FILL_SECONDS: '0',
    LEAD_RATE_LIMIT: '0',
    BOOKING_RATE_LIMIT: '0',
    BOOKING_HOLD_ABOVE_PER_HOUR: '0',
    // A fixed key, so no test makes a key file in the default DATA_DIR (the key file has its own tests).
    CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
    ...env,
  });
  const hub = new NotificationHub(200);
  const events = new EventRecorder(() => database, config.analyticsRateLimit);
  // Its own cache, as another process would have: two test apps on one database are two processes.
  const availability = new PublicAvailability(() => database, config.businessTimeZone, config.availabilityRateLimit);
  const requests = new RequestRate();
  const vault = loadCredentialsVault(config);
  // No worker runs these: a test sends webhooks with `runOnce` and reads the reply mailbox
  // (IMAP_URL) with `reader.flush()` itself.
  const webhooks = new WebhookSender({ database: () => database, config, vault: () => vault, logger });
  const reader = createReader(config, () => database, logger);
  // The server's outbox worker (jobs/registry.ts), off the clock: a test sends what is queued
  // with `outbox.flush()`, to the SMTP_URL it names; routes nudge it as they do in the server.
  const { everyMs: _clock, ...outboxWork } = outboxWorker(
    createOutbox(config, () => database, logger),
    () => requests.busy(),
  );
  const outbox = startWorker(outboxWork, logger);
  // Issued by a test that walks the first run (main.ts issues it when nobody has an account).
  const firstRun = new FirstRunLink();
  const app = createApp({
    config,
    logger,
    database: () => database,
    vault: () => vault,
    hub,
    events,
    availability,
    outbox,
    webhooks,
    requests,
    clientDir,
    firstRun,
  });

  /**
   * A request as the site's own pages send it: to PUBLIC_URL when it is set (else a path is
   * asked of http://localhost), with that Origin, as a browser adds it. `origin: undefined`
   * leaves it out.
   */
  const site = config.fixedOrigin ?? 'http://localhost';
  const json = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string | undefined> = {},
  ): Promise<Response> => {
    const url = new URL(path, site);
    const all: Record<string, string | undefined> = { 'content-type': 'application/json', origin: url.origin, ...headers };
    return app.request(path.startsWith('/') ? `${url.origin}${path}` : path, {
      method,
      headers: Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined)),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  };

  return { app, config, json, hub, outbox, reader, firstRun, availability, vault, webhooks };
}

export function validLead(overrides: Record<string, unknown> = {}) {
  return {
    full_name: 'Jane Investor',
    email: 'jane@example.com',
    phone: '(301) 555-0199',
    property_types: ['multifamily'],
    message: 'A 12-unit building in Baltimore.',
    submission_id: crypto.randomUUID(),
    ...overrides,
  };
}

/** The `name=value` of cookie `name` that `res` sets (not one it clears), or undefined. */
export const cookieOf = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1);

/** Signs in through the real endpoint and returns the Cookie header value. */
export async function signIn(
  json: ReturnType<typeof createTestApp>['json'],
  email: string,
  password: string,
  headers: Record<string, string | undefined> = {},
): Promise<string> {
  const res = await json('POST', '/api/auth/login', { email, password }, headers);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0]!;
}
